// Node loads ICU's locale data on the first locale-aware call (toLocaleString, Intl.*): about 7 MiB
// of resident memory that stays. Two such calls in the messages of template/render/limits.ts, made
// when the bundle loaded, cost every language server and `agentcfg` process that much: without them
// the server's peak at 10 entries went from level with yaml-language-server's to about 6 MiB below
// it. The bundles a user's every session
// loads make none; numbers are formatted by hand. (localeCompare, in sorts some requests run, is
// left: it loads the smaller collation data only when such a request comes.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const LOCALE_AWARE = /\btoLocale(?:String|DateString|TimeString|UpperCase|LowerCase)\(|\bIntl\./g;

for (const bundle of ['dist/server.js', 'dist/cli.js', 'dist/cliMain.js']) {
  test(`${bundle} makes no locale-aware call that loads ICU's locale data`, () => {
    const calls = readFileSync(path.join(root, bundle), 'utf8').match(LOCALE_AWARE) ?? [];
    assert.deepEqual(calls, []);
  });
}
