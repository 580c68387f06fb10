import { CodeActionKind, type CodeAction, type CodeActionParams, type Connection, type Diagnostic, type Range, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { quickFixesFor, type QuickFix } from '../engine/api/editor';
import { DIAGNOSTIC_SOURCE } from '../protocol';
import type { DocumentModels } from './documentModels';

/**
 * Quick fixes of our own diagnostics: those the check computed when it found the problem (in
 * `data`), and those the engine computes from the document now (quickFixesFor); this module only
 * turns them into edits.
 */
export class CodeActionsFeature {
  constructor(
    connection: Connection,
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
  ) {
    connection.onCodeAction((params) => this.actions(params));
  }

  private actions(params: CodeActionParams): CodeAction[] {
    const uri = params.textDocument.uri;
    return params.context.diagnostics.flatMap((diagnostic) => {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) return [];
      const rename = renameFix(uri, diagnostic);
      if (rename) return [rename];
      const fix = quickFix(diagnostic);
      if (!fix) return this.documentFixes(uri, diagnostic);
      return [
        {
          title: fix.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [diagnostic],
          isPreferred: true,
          edit: { changes: { [uri]: [{ range: fix.range ?? diagnostic.range, newText: fix.newText }] } },
        },
      ];
    });
  }

  private documentFixes(uri: string, diagnostic: Diagnostic): CodeAction[] {
    const document = this.documents.get(uri);
    if (!document || typeof diagnostic.code !== 'string') return [];
    const fixes = quickFixesFor(this.models.get(document), { range: diagnostic.range, code: diagnostic.code, data: diagnostic.data });
    return fixes.map((fix: QuickFix) => ({
      title: fix.title,
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      isPreferred: fix.preferred,
      edit: { changes: { [uri]: fix.edits.map((e) => ({ range: e.range, newText: e.newText })) } },
    }));
  }
}

/** `file.ignoredName`: rename config.yml / default.yml to the name GitLab reads (docs/gitlab-behaviour.md#ignored-file-names). */
function renameFix(uri: string, diagnostic: Diagnostic): CodeAction | null {
  const renameTo = (diagnostic.data as Record<string, unknown> | undefined)?.renameTo;
  if (diagnostic.code !== 'file.ignoredName' || (renameTo !== 'config.yaml' && renameTo !== 'default.yaml')) return null;
  const newUri = uri.replace(/[^/]*$/, renameTo);
  return {
    title: `Rename the file to ${renameTo}`,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    isPreferred: true,
    edit: { documentChanges: [{ kind: 'rename', oldUri: uri, newUri, options: { overwrite: false, ignoreIfExists: false } }] },
  };
}

function quickFix(diagnostic: Diagnostic): { title: string; newText: string; range?: Range } | null {
  const data = (diagnostic.data ?? {}) as Record<string, unknown>;
  switch (diagnostic.code) {
    case 'crossFile.resourceManagementNeedsCiJob': {
      // The engine computed an edit elsewhere in the entry (the access_as key).
      return isTextEdit(data.edit) ? { title: 'Set access_as to ci_job', newText: data.edit.newText, range: data.edit.range } : null;
    }
    case 'expr.missingDollar':
    case 'expr.bracedVariable':
    case 'expr.unknownVariable':
      return typeof data.replacement === 'string' ? { title: `Change to ${data.replacement}`, newText: data.replacement } : null;
    case 'template.unquotedAction':
      return typeof data.replacement === 'string' ? { title: 'Quote the value (GitLab parses the template as YAML first)', newText: data.replacement } : null;
    case 'schema.removedKey':
      return typeof data.renameTo === 'string' ? { title: `Rename to "${data.renameTo}"`, newText: data.renameTo } : null;
    case 'template.unknownVariable':
    case 'template.unknownFunction':
    case 'config.imagePullSecretNamespace':
      return typeof data.replacement === 'string' ? { title: `Change to "${data.replacement}"`, newText: data.replacement } : null;
    case 'schema.unknownKey':
    case 'schema.enum':
      return typeof data.suggestion === 'string' ? { title: `Change to "${data.suggestion}"`, newText: data.suggestion } : null;
    default:
      return null;
  }
}

/** `data` comes back from the client: an edit is used only when it has the shape of one. */
function isTextEdit(value: unknown): value is { range: Range; newText: string } {
  const edit = value as { range?: { start?: unknown; end?: unknown }; newText?: unknown } | null | undefined;
  return typeof edit?.newText === 'string' && isPosition(edit.range?.start) && isPosition(edit.range?.end);
}

function isPosition(value: unknown): boolean {
  const position = value as { line?: unknown; character?: unknown } | null | undefined;
  return Number.isInteger(position?.line) && Number.isInteger(position?.character);
}
