import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TextDocumentContentChangeEvent } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { SplicedText, wholeText } from '../../../server/src/engine/text/splicedText';
import { EditedDocument } from '../../../server/src/lsp/editedDocument';
import { seededRandom } from '../../support/generateConfig';

/** Pieces of text an editor inserts: plain characters, line breaks of every kind, multi-byte characters. */
const PIECES = ['a', 'xyz', ' ', '\n', '\n\n', '- id: x\n', 'é', '😀', ''];
const BREAKS = ['\r', '\r\n'];

function randomChange(document: TextDocument, random: () => number, withCarriageReturns: boolean): TextDocumentContentChangeEvent {
  const lines = document.lineCount;
  // Positions on the document's lines, some past the end of their line (as an editor sends them:
  // the library's own line offsets go wrong after a range past the last line).
  const position = () => ({ line: Math.floor(random() * lines), character: Math.floor(random() * 12) });
  const pieces = withCarriageReturns && random() < 0.2 ? [...PIECES, ...BREAKS] : PIECES;
  const text = Array.from({ length: Math.floor(random() * 3) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
  if (random() < 0.03) return { text: `ci_access:\n  projects:\n${text}` };
  // Start and end in any order: the library swaps them.
  return { range: { start: position(), end: random() < 0.5 ? position() : position() }, text };
}

/** Positions, also out of the text, are compared with the library's document and one made afresh from its text. */
function assertSame(edited: EditedDocument, updated: TextDocument, random: () => number, step: string): void {
  assert.equal(edited.version, updated.version, `version ${step}`);
  const library = TextDocument.create(updated.uri, 'yaml', updated.version, updated.getText());
  assert.equal(edited.lineCount, library.lineCount, `line count ${step}`);
  for (let k = 0; k < 20; k++) {
    const offset = Math.floor(random() * (library.getText().length + 4)) - 2;
    assert.deepEqual(edited.positionAt(offset), library.positionAt(offset), `position of ${offset} ${step}`);
    assert.deepEqual(edited.positionAt(offset), updated.positionAt(offset), `position of ${offset} ${step}`);
    const position = { line: Math.floor(random() * (library.lineCount + 2)) - 1, character: Math.floor(random() * 14) - 1 };
    assert.equal(edited.offsetAt(position), library.offsetAt(position), `offset of ${JSON.stringify(position)} ${step}`);
  }
  for (const line of [-1, 0, Math.floor(random() * library.lineCount), library.lineCount - 1, library.lineCount]) {
    assert.deepEqual(edited.getLineRange(line), library.getLineRange(line), `range of line ${line} ${step}`);
    assert.equal(edited.getEOLCharacters(line), library.getEOLCharacters(line), `line break of line ${line} ${step}`);
  }
  const range = { start: library.positionAt(Math.floor(random() * library.getText().length)), end: library.positionAt(Math.floor(random() * library.getText().length)) };
  assert.equal(edited.getText(range), library.getText(range), `text of a range ${step}`);
}

describe('EditedDocument answers as the library TextDocument after the same changes', () => {
  for (const [seed, withCarriageReturns] of [
    [1, false],
    [2, false],
    [3, false],
    [4, true],
    [5, true],
  ] as const) {
    it(`300 updates of 1 to 3 changes, the text read now and then (seed ${seed}${withCarriageReturns ? ', carriage returns' : ''})`, () => {
      const random = seededRandom(seed);
      const initial = 'ci_access:\n  projects:\n    - id: a/b\n      default_namespace: x\n    - id: c/d\n';
      const edited = new EditedDocument('file:///a/config.yaml', 'yaml', 1, initial);
      const library = TextDocument.create('file:///a/config.yaml', 'yaml', 1, initial);
      for (let step = 0; step < 300; step++) {
        // Each change of an update applies to the text the ones before it left (as in the protocol).
        const scratch = TextDocument.create(library.uri, 'yaml', 0, library.getText());
        const changes = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
          const change = randomChange(scratch, random, withCarriageReturns);
          TextDocument.update(scratch, [change], 0);
          return change;
        });
        edited.update(changes, step + 2);
        TextDocument.update(library, changes, step + 2);
        // Positions are compared before the text is read: they must not need it.
        assertSame(edited, library, random, `after update ${step} (seed ${seed})`);
        // The text as the incremental model reads it (spliced, not joined) is the same text.
        if (random() < 0.3) assert.equal(wholeText(edited.textSource()), library.getText(), `text source after update ${step} (seed ${seed})`);
        if (random() < 0.3) assert.equal(edited.getText(), library.getText(), `text after update ${step} (seed ${seed})`);
      }
      assert.equal(edited.getText(), library.getText());
    });
  }

  it('a text with a carriage return from the start', () => {
    const edited = new EditedDocument('file:///a.yaml', 'yaml', 1, 'a\r\nb\rc\n');
    const library = TextDocument.create('file:///a.yaml', 'yaml', 1, 'a\r\nb\rc\n');
    const change = [{ range: { start: { line: 1, character: 1 }, end: { line: 2, character: 0 } }, text: 'x' }];
    edited.update(change, 2);
    TextDocument.update(library, change, 2);
    assert.equal(edited.getText(), library.getText());
    assert.deepEqual(edited.positionAt(4), library.positionAt(4));
  });

  it('gives the incremental model its edits spliced into the last text it joined, and the whole text once the span is long', () => {
    const initial = 'ci_access:\n  projects:\n    - id: a/b\n'.repeat(10);
    const document = new EditedDocument('file:///a/config.yaml', 'yaml', 1, initial);
    document.update([{ range: { start: { line: 2, character: 13 }, end: { line: 2, character: 13 } }, text: 'c' }], 2);
    const source = document.textSource();
    assert.ok(source instanceof SplicedText, 'a keystroke leaves a splice');
    assert.equal(source.base, initial, 'of the text as it was joined last');
    assert.equal(source.middle, 'c');
    document.update([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'x'.repeat(70 * 1024) }], 3);
    assert.equal(typeof document.textSource(), 'string', 'a span longer than 64 KiB is joined');
  });
});
