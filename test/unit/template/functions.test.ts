// docs/gitlab-behaviour.md#template-variables-and-functions: GitLab's template functions `lower`, `substr`, `replace`, `trimPrefix`, `trimSuffix`, `slugify`
// with sprig's names and argument order (a piped value is the last argument).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  GITLAB_FUNCTION_DOCS,
  GITLAB_FUNCTION_NAMES,
  renderGoTemplate,
  slugifyLabel,
} from '../../../server/src/engine/template/render/index';

function render(template: string, data: unknown = {}): string {
  const result = renderGoTemplate(template, data);
  if (!result.ok) assert.fail(result.error.message);
  return result.text;
}

function renderError(template: string, data: unknown = {}): string {
  const result = renderGoTemplate(template, data);
  if (result.ok) assert.fail(`expected an error, got ${JSON.stringify(result.text)}`);
  return result.error.message;
}

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('the documentation examples', () => {
  const rows: Array<[string, string]> = [
    ['{{ lower "HELLO" }}', 'hello'],
    ['{{ substr 0 5 "hello world" }}', 'hello'],
    ['{{ replace "_" "-" "foo_bar" }}', 'foo-bar'],
    ['{{ trimPrefix "-" "-hello" }}', 'hello'],
    ['{{ trimSuffix "-" "hello-" }}', 'hello'],
    ['{{ slugify "hello WORLD" }}', 'hello-world'],
  ];
  for (const [template, expected] of rows) {
    test(`${template} → ${expected}`, () => assert.equal(render(template), expected));
  }
  test('the exported docs carry the same examples, one per function', () => {
    assert.deepEqual(GITLAB_FUNCTION_NAMES, ['lower', 'substr', 'replace', 'trimPrefix', 'trimSuffix', 'slugify']);
    for (const doc of GITLAB_FUNCTION_DOCS) assert.equal(render(doc.example.template), doc.example.result, doc.name);
  });
});

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('pipelines: the piped value is the last argument (sprig order)', () => {
  const rows: Array<[string, string]> = [
    ['{{ "HELLO" | lower }}', 'hello'],
    ['{{ "hello world" | substr 0 5 }}', 'hello'],
    ['{{ "foo_bar" | replace "_" "-" }}', 'foo-bar'],
    ['{{ "-hello" | trimPrefix "-" }}', 'hello'],
    ['{{ "hello-" | trimSuffix "-" }}', 'hello'],
    ['{{ "hello WORLD" | slugify }}', 'hello-world'],
    ['{{ "hello WORLD" | slugify 5 }}', 'hello'],
    ['{{ .project.slug | replace "_" "-" | lower | printf "%s-ns" }}', 'my-app-ns'],
  ];
  for (const [template, expected] of rows) {
    test(`${template} → ${expected}`, () => assert.equal(render(template, { project: { slug: 'My_App' } }), expected));
  }
});

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('substr: sprig semantics, byte offsets; Go panics become template errors', () => {
  const rows: Array<[string, string]> = [
    ['{{ substr 0 100 "abc" }}', 'abc'],
    ['{{ substr 1 -1 "abc" }}', 'bc'],
    ['{{ substr -1 2 "abc" }}', 'ab'],
    ['{{ substr 1 1 "abc" }}', ''],
    ['{{ substr 3 5 "abc" }}', ''],
    ['{{ substr 0 2 "héllo" }}', 'h\uFFFD'],
  ];
  for (const [template, expected] of rows) {
    test(`${template} → ${JSON.stringify(expected)}`, () => assert.equal(render(template), expected));
  }
  const errors: Array<[string, string]> = [
    ['{{ substr 2 1 "abc" }}', 'error calling substr: runtime error: slice bounds out of range [2:1]'],
    ['{{ substr -1 5 "abc" }}', 'error calling substr: runtime error: slice bounds out of range [:5] with length 3'],
    ['{{ substr -1 -1 "abc" }}', 'error calling substr: runtime error: slice bounds out of range [:-1]'],
    ['{{ substr 5 -1 "abc" }}', 'error calling substr: runtime error: slice bounds out of range [5:3]'],
    ['{{ substr "0" 1 "abc" }}', 'expected integer; found "0"'],
  ];
  for (const [template, cause] of errors) {
    test(`${template} fails: ${cause}`, () => assert.match(renderError(template), new RegExp(`: ${cause.replace(/[[\]()]/g, '\\$&')}$`)));
  }
});

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('replace, trimPrefix, trimSuffix', () => {
  const rows: Array<[string, string]> = [
    ['{{ replace "_" "-" "a_b_c" }}', 'a-b-c'],
    ['{{ replace "" "-" "ab" }}', '-a-b-'],
    ['{{ trimPrefix "x" "abc" }}', 'abc'],
    ['{{ trimPrefix "-" "--a" }}', '-a'],
    ['{{ trimSuffix "" "abc" }}', 'abc'],
    ['{{ trimSuffix "-" "a--" }}', 'a-'],
  ];
  for (const [template, expected] of rows) {
    test(`${template} → ${expected}`, () => assert.equal(render(template), expected));
  }
  test('a non-string argument is a type error, as with sprig\'s Go signatures', () => {
    assert.match(renderError('{{ lower .id }}', { id: 42 }), /wrong type for value; expected string; got int$/);
  });
});

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('slugify [<len>] <string> (exact algorithm not published; our choice: RFC 1123 label)', () => {
  const rows: Array<[string, number | undefined, string]> = [
    ['hello WORLD', undefined, 'hello-world'],
    ['My_App.v2', undefined, 'my-app-v2'],
    ['--a__b--', undefined, 'a-b'],
    ['Ünïcode', undefined, 'n-code'],
    ['hello world', 5, 'hello'],
    ['hello world', 6, 'hello'],
    ['a'.repeat(70), undefined, 'a'.repeat(63)],
    [`${'a'.repeat(62)}-b`, undefined, 'a'.repeat(62)],
  ];
  for (const [input, length, expected] of rows) {
    test(`slugify ${length ?? ''} ${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(slugifyLabel(input, length), expected);
      const template = length === undefined ? '{{ slugify .s }}' : `{{ slugify ${length} .s }}`;
      assert.equal(render(template, { s: input }), expected);
    });
  }
  const errors: Array<[string, string]> = [
    ['{{ slugify }}', 'error calling slugify: want 1 or 2 arguments ([<len>] <string>), got 0'],
    ['{{ slugify 1 2 "x" }}', 'error calling slugify: want 1 or 2 arguments ([<len>] <string>), got 3'],
    ['{{ slugify "5" "x" }}', 'error calling slugify: the length must be an integer, got string'],
    ['{{ slugify 0 "x" }}', 'error calling slugify: the length must be at least 1, got 0'],
    ['{{ slugify 5 }}', 'error calling slugify: the string to slugify must be a string, got int'],
  ];
  for (const [template, cause] of errors) {
    test(`${template} fails: ${cause}`, () => assert.ok(renderError(template).endsWith(cause), renderError(template)));
  }
});
