import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SplicedText, sharedEnds, wholeText } from '../../../server/src/engine/text/splicedText';
import { seededRandom } from '../../support/generateConfig';
import { sharedEndsByCharacter } from '../../support/textChange';

/** A random splice of `base`: a span replaced by a piece of text (empty spans and pieces included). */
function randomSplice(base: string, random: () => number): SplicedText {
  const a = Math.floor(random() * (base.length + 1));
  const b = Math.floor(random() * (base.length + 1));
  const [from, to] = a <= b ? [a, b] : [b, a];
  const pieces = ['', 'x', '\n', 'é😀', 'abc\ndef', base.slice(0, 7)];
  return new SplicedText(base, from, pieces[Math.floor(random() * pieces.length)], base.length - to);
}

describe('SplicedText reads as the joined string', () => {
  it('slices and characters of 2,000 random splices, at every offset and across the pieces', () => {
    const random = seededRandom(41);
    const base = 'ci_access:\n  projects:\n    - id: a/é😀\n      default_namespace: x\n';
    for (let n = 0; n < 2000; n++) {
      const spliced = randomSplice(base, random);
      const joined = spliced.base.slice(0, spliced.prefix) + spliced.middle + spliced.base.slice(base.length - spliced.suffix);
      assert.equal(spliced.length, joined.length);
      for (let i = -1; i <= joined.length; i++) assert.equal(String(spliced.charCodeAt(i)), String(joined.charCodeAt(i)), `character ${i} of splice ${n}`);
      for (let k = 0; k < 30; k++) {
        // Negative offsets count from the end, as in String.prototype.slice.
        const s = Math.floor(random() * (joined.length + 8)) - 5;
        const e = Math.floor(random() * (joined.length + 8)) - 5;
        assert.equal(spliced.slice(s, e), joined.slice(s, e), `slice ${s}..${e} of splice ${n}`);
      }
      assert.equal(wholeText(spliced), joined);
      // Once joined, the answers come from the joined string and stay the same.
      assert.equal(spliced.slice(0, joined.length), joined);
    }
  });

  it('rejects a prefix and suffix that overlap in the base', () => {
    assert.throws(() => new SplicedText('abc', 2, '', 2), RangeError);
  });
});

describe('sharedEnds', () => {
  it('equals a character-by-character comparison for strings and splices, of one base or of two', () => {
    const random = seededRandom(43);
    // Long enough for the doubling blocks; runs of one character make the shared ends ambiguous.
    const base = Array.from({ length: 3000 }, (_, i) => (i % 97 === 0 ? 'aaaa\n' : `line ${i}\n`)).join('');
    const other = base.slice(0, 5000) + 'changed' + base.slice(5003);
    for (let n = 0; n < 300; n++) {
      const before = random() < 0.2 ? base : randomSplice(base, random);
      const after = random() < 0.3 ? randomSplice(other, random) : randomSplice(base, random);
      assert.deepEqual(sharedEnds(before, after), sharedEndsByCharacter(wholeText(before), wholeText(after)), `pair ${n}`);
    }
  });
});
