// One diagnostic per YAML syntax mistake (engine/yaml/syntaxMistakes.ts): a typo reports itself,
// at its place, in words a user reads, and not every line after it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseYaml } from '../../server/src/engine/yaml/yamlDocument';

const root = path.resolve(import.meta.dirname, '..', '..');
const example = readFileSync(path.join(root, 'examples', '.gitlab', 'agents', 'production-agent', 'config.yaml'), 'utf8').split('\n');

const syntaxErrors = (text: string) => parseYaml(text).diagnostics.filter((d) => d.code === 'yaml.syntax');
const withLine = (lines: readonly string[], index: number, suffix: string) => lines.map((line, i) => (i === index ? line + suffix : line)).join('\n');
/** The lines that hold `key: value` or `- value`, where a user types after a value. */
const valueLines = example.flatMap((line, i) => (/^\s*(- )?[\w.-]+: \S/.test(line) && !line.includes('#') ? [i] : []));

for (const typed of [' [oops: {', ' {', ' [', ' }', ': x: y']) {
  test(`"${typed}" typed after any value of the example gives at most one syntax error, on that line or the bracket's`, () => {
    assert.ok(valueLines.length > 10, 'the example has values to type after');
    for (const i of valueLines) {
      const errors = syntaxErrors(withLine(example, i, typed));
      assert.ok(errors.length <= 1, `line ${i + 1}: ${errors.length} errors:\n${errors.map((e) => `${e.range.start.line + 1}: ${e.message}`).join('\n')}`);
      for (const e of errors) assert.ok(e.range.start.line <= i, `line ${i + 1}: the error is below the mistake, on line ${e.range.start.line + 1}`);
    }
  });
}

test('the unclosed bracket is named where it was typed, not where the library gives up', () => {
  const errors = syntaxErrors(withLine(example, 1, ' [oops: {'));
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.range.start.line, 1);
  assert.match(errors[0]!.message, /^This "\{" is never closed: add the "\}"/);
});

test('two mistakes far apart are two diagnostics, each at its place', () => {
  const lines = [...example];
  const [first, second] = [valueLines[2]!, valueLines[valueLines.length - 2]!];
  lines[first] += ' {';
  // "warn {" alone is a plain value; a second ": " inside one is not.
  lines[second] += ': x: y';
  assert.deepEqual(
    syntaxErrors(lines.join('\n')).map((e) => e.range.start.line),
    [first, second],
  );
});

test("the messages are words, not the parser's token names", () => {
  const tokenNames = /map-value-ind|seq-item-ind|flow-map-start|flow-seq-start|flow-error-end|YAML stream|compact mappings/;
  for (const i of valueLines) {
    for (const typed of [' [oops: {', ' {', ': x: y']) {
      for (const e of syntaxErrors(withLine(example, i, typed))) assert.doesNotMatch(e.message, tokenNames, `line ${i + 1} "${typed}": ${e.message}`);
    }
  }
});

test('a file of many broken lines reports a bounded number of mistakes', () => {
  const broken = Array.from({ length: 2000 }, (_, i) => `key${i}: [unclosed {${i}`).join('\n');
  const errors = syntaxErrors(broken);
  assert.ok(errors.length >= 1 && errors.length <= 20, `${errors.length} errors`);
});

test('a valid file has none, and a single mistake is reported as before', () => {
  assert.deepEqual(syntaxErrors(example.join('\n')), []);
  const errors = syntaxErrors('ci_access:\n  projects:\n    - id: "acme\n');
  assert.equal(errors.length, 1);
});
