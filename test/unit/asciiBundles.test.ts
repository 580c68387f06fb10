// Node holds a script that has a single non-ASCII character as a two-byte string: twice the memory
// of its source, and more resident memory from the start.
// esbuild escapes non-ASCII characters in code but keeps them in the comments it preserves, so the
// build rewrites them (scripts/build.mjs, asciiOutput).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const dist = path.resolve(import.meta.dirname, '..', '..', 'dist');

for (const bundle of readdirSync(dist).filter((name) => name.endsWith('.js'))) {
  test(`dist/${bundle} is ASCII`, () => {
    const source = readFileSync(path.join(dist, bundle), 'utf8');
    const at = source.search(/[\u0080-\uffff]/);
    assert.equal(at, -1, `a non-ASCII character at offset ${at}: ${JSON.stringify(source.slice(Math.max(0, at - 40), at + 10))}`);
  });
}
