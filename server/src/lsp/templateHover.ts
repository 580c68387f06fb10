import { MarkupKind, type Hover, type Position, type TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { classifyPath, explainTemplateAt, type ProjectSettings } from '../engine/api';
import type { AgentSiblingFinder } from './agentSiblings';
import { documentPath } from './uriPaths';

/**
 * The hover of an environment template: the engine's explanation (engine/api
 * explainTemplateAt) of the action or object under the pointer, with the agent's config.yaml found
 * as the diagnostics find it (the open document, else the file on disk).
 */
export class TemplateHovers {
  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly siblings: AgentSiblingFinder,
  ) {}

  /** Null for other files: only `default.yaml` is rendered by GitLab, and only it is checked with its config. */
  hover(uri: string, position: Position, settings: ProjectSettings): Hover | null {
    const file = classifyPath(documentPath(uri));
    const document = this.documents.get(uri);
    if (file.kind !== 'environmentTemplate' || file.templateName !== 'default' || !document) return null;
    const found = explainTemplateAt(document.getText(), document.offsetAt(position), file.agentName, settings, this.siblings.siblingsOf(uri));
    if (!found) return null;
    return {
      contents: { kind: MarkupKind.Markdown, value: found.markdown },
      range: { start: document.positionAt(found.start), end: document.positionAt(found.end) },
    };
  }
}
