import type { TextDocumentContentChangeEvent, TextDocumentsConfiguration } from 'vscode-languageserver';
import { TextDocument, type Position, type Range } from 'vscode-languageserver-textdocument';
import { SplicedText, type TextSource } from '../engine/api/editor';

/**
 * Above this many changed characters since the last join, {@link EditedDocument.textSource} joins
 * the text: slices that cross a long middle would copy it at every reader.
 */
const LONGEST_SPLICE = 64 * 1024;

/**
 * An open document whose keystrokes do not copy its text. The library's TextDocument reads the
 * text it has just joined (to look for a CR LF across the edit), and V8 then copies the joined
 * pieces into one flat string: at every keystroke, the whole file (17 MB at 50,000
 * entries) and as much garbage. This one keeps the text of its last whole read (`base`) and, until
 * the next, only the span the edits since then changed (`middle`, between `prefix` characters of
 * the base and its last `suffix`): a keystroke costs its own size and the shift of the line starts
 * after it. Readers of a range, and the incremental model of a config (`textSource`, a spliced
 * text), read the pieces; only a reader of the whole text joins them, once per version. Positions
 * are the library's. A text with a carriage return (a line break of its own, or in CR LF) is left
 * to the library's TextDocument, which this then wraps.
 */
export class EditedDocument implements TextDocument {
  private base: string;
  private prefix = 0;
  private suffix = 0;
  /** The text between the base's first `prefix` and last `suffix` characters, or null when the base is the text. */
  private middle: string | null = null;
  private length: number;
  /** Offset of the start of each line (the text has no carriage return, so lines end at `\n`). */
  private lineStarts: number[];
  /** Set for good once the text holds a carriage return. */
  private library: TextDocument | null = null;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    private currentVersion: number,
    content: string,
  ) {
    this.base = content;
    this.length = content.length;
    this.lineStarts = [0].concat(newlineStarts(content, 0));
    if (content.includes('\r')) this.library = TextDocument.create(uri, languageId, currentVersion, content);
  }

  get version(): number {
    return this.currentVersion;
  }

  get lineCount(): number {
    return this.library?.lineCount ?? this.lineStarts.length;
  }

  getText(range?: Range): string {
    if (this.library) return this.library.getText(range);
    if (range && this.middle !== null) {
      // A range is read from the pieces: a feature reading a few lines does not join the text.
      const [a, b] = [this.offsetAt(range.start), this.offsetAt(range.end)];
      return this.sliceCurrent(Math.min(a, b), Math.max(a, b));
    }
    if (this.middle !== null) {
      this.base = this.base.slice(0, this.prefix) + this.middle + this.base.slice(this.base.length - this.suffix);
      this.middle = null;
      // Reading a character makes V8 join the pieces into one flat string, once, here. Left joined
      // lazily, each slice a reader takes of it (the incremental model takes dozens) copied the
      // whole text again: 17 MB each at 50,000 entries.
      this.base.charCodeAt(0);
    }
    return range ? this.base.substring(this.offsetAt(range.start), this.offsetAt(range.end)) : this.base;
  }

  /**
   * The text for readers that take a {@link TextSource}: the edits since the last join spliced into
   * the joined text, not joined again (the incremental model of a big config reads only around the
   * edit). The same as `getText()` when nothing changed since the last join or the changed span is long.
   */
  textSource(): TextSource {
    if (this.library || this.middle === null || this.middle.length > LONGEST_SPLICE) return this.getText();
    return new SplicedText(this.base, this.prefix, this.middle, this.suffix);
  }

  positionAt(offset: number): Position {
    if (this.library) return this.library.positionAt(offset);
    const clamped = Math.max(0, Math.min(offset, this.length));
    let low = 0;
    let high = this.lineStarts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.lineStarts[mid] > clamped) high = mid;
      else low = mid + 1;
    }
    return { line: low - 1, character: clamped - this.lineStarts[low - 1] };
  }

  offsetAt(position: Position): number {
    if (this.library) return this.library.offsetAt(position);
    const starts = this.lineStarts;
    if (position.line >= starts.length) return this.length;
    if (position.line < 0) return 0;
    const start = starts[position.line];
    if (position.character <= 0) return start;
    return Math.min(start + position.character, this.lineEnd(position.line));
  }

  /** Where a line ends: before its `\n`, or at the end of the text for the last line (the library's ensureBeforeEOL). */
  private lineEnd(line: number): number {
    return line + 1 < this.lineStarts.length ? this.lineStarts[line + 1] - 1 : this.length;
  }

  getLineRange(line: number): Range {
    if (this.library) return this.library.getLineRange(line);
    const starts = this.lineStarts;
    if (line >= starts.length) {
      const last = starts.length - 1;
      return { start: { line: last, character: 0 }, end: { line: last, character: this.length - starts[last] } };
    }
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    return { start: { line, character: 0 }, end: { line, character: this.lineEnd(line) - starts[line] } };
  }

  getEOLCharacters(line: number): string {
    if (this.library) return this.library.getEOLCharacters(line);
    return line >= 0 && line + 1 < this.lineStarts.length ? '\n' : '';
  }

  update(changes: readonly TextDocumentContentChangeEvent[], version: number): void {
    this.currentVersion = version;
    for (const change of changes) {
      if (!this.library && change.text.includes('\r')) this.library = TextDocument.create(this.uri, this.languageId, this.currentVersion, this.getText());
      if (this.library) {
        TextDocument.update(this.library, [change], version);
        continue;
      }
      if (!('range' in change)) {
        this.base = change.text;
        this.middle = null;
        this.length = change.text.length;
        this.lineStarts = [0].concat(newlineStarts(change.text, 0));
        continue;
      }
      const range = wellFormed(change.range);
      const start = this.offsetAt(range.start);
      const end = this.offsetAt(range.end);
      this.replace(start, end, change.text);
      // The line starts inside the replaced span give way to those of the new text; the later ones move.
      const startLine = Math.max(0, Math.min(range.start.line, this.lineStarts.length - 1));
      const endLine = Math.max(startLine, Math.min(range.end.line, this.lineStarts.length - 1));
      const added = newlineStarts(change.text, start);
      const growth = change.text.length - (end - start);
      const after = this.lineStarts.length - endLine - 1;
      if (added.length === endLine - startLine) {
        for (let i = 0; i < added.length; i++) this.lineStarts[startLine + 1 + i] = added[i];
      } else {
        this.lineStarts = this.lineStarts.slice(0, startLine + 1).concat(added, this.lineStarts.slice(endLine + 1));
      }
      if (growth !== 0) for (let i = this.lineStarts.length - after; i < this.lineStarts.length; i++) this.lineStarts[i] += growth;
    }
  }

  /** Replaces [start, end) of the text without reading the text outside the changed span. */
  private replace(start: number, end: number, text: string): void {
    if (this.middle === null) {
      this.prefix = start;
      this.suffix = this.length - end;
      this.middle = text;
    } else {
      // Widen the changed span to cover the edit: the characters it takes in are the base's.
      const middleEnd = this.length - this.suffix;
      const from = Math.min(start, this.prefix);
      const to = Math.max(end, middleEnd);
      this.middle = this.sliceCurrent(from, start) + text + this.sliceCurrent(end, to);
      this.prefix = from;
      this.suffix = this.length - to;
    }
    this.length += text.length - (end - start);
  }

  /** Characters [a, b) of the current text (a and b within the changed span, or within the base around it). */
  private sliceCurrent(a: number, b: number): string {
    if (a >= b) return '';
    const middle = this.middle!;
    const middleEnd = this.prefix + middle.length;
    const tailShift = this.base.length - this.length; // current offset + shift = base offset, after the middle
    let out = '';
    if (a < this.prefix) out += this.base.slice(a, Math.min(b, this.prefix));
    if (b > this.prefix && a < middleEnd) out += middle.slice(Math.max(a, this.prefix) - this.prefix, Math.min(b, middleEnd) - this.prefix);
    if (b > middleEnd) out += this.base.slice(Math.max(a, middleEnd) + tailShift, b + tailShift);
    return out;
  }
}

/** The open documents' factory for vscode-languageserver's TextDocuments. */
export const editedDocuments: TextDocumentsConfiguration<TextDocument> = {
  create: (uri, languageId, version, content) => new EditedDocument(uri, languageId, version, content),
  update: (document, changes, version) => {
    if (!(document instanceof EditedDocument)) throw new Error('editedDocuments.update: the document was not made by editedDocuments.create');
    document.update(changes, version);
    return document;
  },
};

/** The offset after each `\n` of `text`, counted from `offset`. */
function newlineStarts(text: string, offset: number): number[] {
  const starts: number[] = [];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(offset + i + 1);
  return starts;
}

function wellFormed(range: Range): Range {
  const { start, end } = range;
  return start.line > end.line || (start.line === end.line && start.character > end.character) ? { start: end, end: start } : range;
}
