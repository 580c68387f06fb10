// The kept template parse (render/lastParsed.ts): a parse that accepted every function name answers
// a later parse that knows the functions the template calls, and never one that does not (Go fails
// the parse at the first unknown function: text/template/parse, `parse.(*Tree).function`).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TemplateFailure } from '../../../server/src/engine/template/render/errors';
import { parseTemplateOnce } from '../../../server/src/engine/template/render/lastParsed';
import { parseTemplate } from '../../../server/src/engine/template/render/parser';

const TEXT = 'metadata:\n  name: {{ .environment.slug | printf "%s-x" }}\n  ns: {{ slugify .project.slug }}\n';
const known = (names: string[]) => (f: string) => names.includes(f);

test('a parse accepting every name answers a parse that knows the called functions, with trees equal to a fresh parse', () => {
  const anyName = parseTemplateOnce(TEXT, 'default', null);
  const strict = parseTemplateOnce(TEXT, 'default', known(['printf', 'slugify']));
  assert.equal(strict, anyName);
  assert.deepEqual(strict, parseTemplate(TEXT, 'default', known(['printf', 'slugify'])));
});

test('a function the names lack fails the parse where Go fails it, though a parse of the same text is kept', () => {
  parseTemplateOnce(TEXT, 'default', null);
  assert.throws(
    () => parseTemplateOnce(TEXT, 'default', known(['printf'])),
    (e: unknown) => e instanceof TemplateFailure && /function "slugify" not defined/.test(e.message) && TEXT.slice(e.start, e.end) === 'slugify',
  );
});

test('another text or another name is parsed again', () => {
  const first = parseTemplateOnce(TEXT, 'default', null);
  assert.notEqual(parseTemplateOnce(TEXT, 'other', null), first);
  const changed = parseTemplateOnce(TEXT.replace('-x', '-y'), 'default', null);
  assert.notEqual(changed, first);
  assert.deepEqual(changed, parseTemplate(TEXT.replace('-x', '-y'), 'default', () => true));
});

test('a failed parse is not kept: the next request parses and fails again', () => {
  const broken = '{{ .a | nosuch }}{{ if }}';
  const parse = () => parseTemplateOnce(broken, 'default', null);
  assert.throws(parse, TemplateFailure);
  assert.throws(parse, TemplateFailure);
  assert.throws(() => parseTemplateOnce(broken, 'default', known([])), /function "nosuch" not defined/);
});
