import { CodeActionKind, type CodeAction, type CodeActionParams, type Connection, type Diagnostic, type Range } from 'vscode-languageserver';
import { DIAGNOSTIC_SOURCE } from '../protocol';

/**
 * Quick fixes carried by our own diagnostics: the fix is computed where the problem is found (the
 * engine puts it in `data`), so this module only turns it into an edit.
 */
export class CodeActionsFeature {
  constructor(connection: Connection) {
    connection.onCodeAction((params) => this.actions(params));
  }

  private actions(params: CodeActionParams): CodeAction[] {
    const uri = params.textDocument.uri;
    return params.context.diagnostics.flatMap((diagnostic) => {
      if (diagnostic.source !== DIAGNOSTIC_SOURCE) return [];
      const rename = renameFix(uri, diagnostic);
      if (rename) return [rename];
      const fix = quickFix(diagnostic);
      if (!fix) return [];
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
