import type { Middleware } from 'vscode-languageclient';
import { isPipelineFile } from './documentSelector';

const pipeline = (document: { uri: { path: string } }) => isPipelineFile(document.uri.path);

/**
 * On `.gitlab-ci.yml` the server contributes only the access map: code lenses, hovers and its
 * diagnostics (which it pushes). Every other feature is not even asked for that file, so the user's
 * YAML or GitLab extension keeps completion, outline, folding, highlighting and links to itself.
 */
export const PIPELINE_MIDDLEWARE: Middleware = {
  provideCompletionItem: (document, position, context, token, next) => (pipeline(document) ? undefined : next(document, position, context, token)),
  provideDocumentSymbols: (document, token, next) => (pipeline(document) ? undefined : next(document, token)),
  provideFoldingRanges: (document, context, token, next) => (pipeline(document) ? undefined : next(document, context, token)),
  provideSelectionRanges: (document, positions, token, next) => (pipeline(document) ? undefined : next(document, positions, token)),
  provideDocumentSemanticTokens: (document, token, next) => (pipeline(document) ? undefined : next(document, token)),
  provideDocumentRangeSemanticTokens: (document, range, token, next) => (pipeline(document) ? undefined : next(document, range, token)),
  provideInlayHints: (document, range, token, next) => (pipeline(document) ? undefined : next(document, range, token)),
  provideCodeActions: (document, range, context, token, next) => (pipeline(document) ? undefined : next(document, range, context, token)),
  provideDocumentLinks: (document, token, next) => (pipeline(document) ? undefined : next(document, token)),
};
