import type { TextDocument } from 'vscode-languageserver-textdocument';

/**
 * The last good results of a feature (code lenses, inlay hints) per document, carried over to a
 * version that cannot be read (a half-typed line is a YAML syntax error): each result stays on the
 * line whose text it was on, found again nearest its old place; results whose line the edit
 * changed are dropped. Without this every half-typed line removed all lenses and hints and the
 * text jumped by as many lines while the user typed.
 */
export class LastGood<T> {
  /**
   * Per document, each result with its line and that line's text. Only those lines: keeping every
   * line of the file (hundreds of thousands in a big one) cost two arrays of them per document.
   */
  private readonly byUri = new Map<string, readonly { line: number; text: string | undefined; item: T }[]>();

  /**
   * Keeps `items` (each on line `lineOf(item)` of `document`) as the last good results of its URI.
   * Reads only those lines: a feature answered at every keystroke of a big file must not split
   * (or join) its whole text.
   */
  remember(document: TextDocument, items: readonly T[], lineOf: (item: T) => number): void {
    this.byUri.set(document.uri, items.map((item) => ({ line: lineOf(item), text: lineText(document, lineOf(item)), item })));
  }

  /** The last good results moved to their lines in `text`, each with its new line. */
  recall(uri: string, text: string): { line: number; item: T }[] {
    const last = this.byUri.get(uri);
    if (!last) return [];
    const wanted = new Set(last.map((entry) => entry.text));
    const linesByText = new Map<string, number[]>();
    text.split('\n').forEach((line, i) => {
      if (!wanted.has(line)) return;
      const at = linesByText.get(line);
      if (at) at.push(i);
      else linesByText.set(line, [i]);
    });
    const out: { line: number; item: T }[] = [];
    for (const { line, text: lineText, item } of last) {
      const candidates = lineText === undefined ? undefined : linesByText.get(lineText);
      if (!candidates) continue;
      const nearest = candidates.reduce((best, c) => (Math.abs(c - line) < Math.abs(best - line) ? c : best));
      out.push({ line: nearest, item });
    }
    return out;
  }

  forget(uri: string): void {
    this.byUri.delete(uri);
  }
}

/** Line `line` of the document as `split('\n')` gives it (a `\r` before the `\n` kept); undefined past the last line. */
function lineText(document: TextDocument, line: number): string | undefined {
  if (line < 0 || line >= document.lineCount) return undefined;
  const text = document.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } });
  return text.endsWith('\n') ? text.slice(0, -1) : text;
}
