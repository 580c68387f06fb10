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

  /** Keeps `items` (each on line `lineOf(item)` of `text`) as the last good results of `uri`. */
  remember(uri: string, text: string, items: readonly T[], lineOf: (item: T) => number): void {
    const lines = text.split('\n');
    this.byUri.set(uri, items.map((item) => ({ line: lineOf(item), text: lines[lineOf(item)], item })));
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

