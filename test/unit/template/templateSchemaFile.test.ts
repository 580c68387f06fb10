import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..', '..');

test('schemas/environment-template.schema.json is generated from schemas/src and up to date', () => {
  const file = path.join(root, 'schemas', 'environment-template.schema.json');
  const before = readFileSync(file, 'utf8');
  execFileSync(process.execPath, [path.join(root, 'schemas', 'src', 'build-environment-template-schema.mjs')], { stdio: 'pipe' });
  assert.equal(readFileSync(file, 'utf8'), before, 'run `node schemas/src/build-environment-template-schema.mjs` and commit the result');
});
