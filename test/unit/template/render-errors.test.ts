// docs/gitlab-behaviour.md#template-variables-and-functions: rendering errors point at the template line and column. Messages are Go 1.26's
// text/template messages, checked against Go; ranges are 0-based lines and UTF-16 characters in the
// template text (the editor convention), while the message keeps Go's 1-based line and byte column.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderGoTemplate, type TemplateError } from '../../../server/src/engine/template/render/index';

const DATA = {
  environment: { name: 'review/feature-x', slug: 'review-feature-x-bjrazc', tier: 'development', id: 3 },
  project: { id: 42, slug: 'My_App', path: 'group/My_App' },
  agent: { id: 7, name: 'agent-1' },
};

function failure(template: string): TemplateError {
  const result = renderGoTemplate(template, DATA);
  if (result.ok) assert.fail(`expected an error, rendered ${JSON.stringify(result.text)}`);
  return result.error;
}

type Span = [line: number, startChar: number, endLine: number, endChar: number];

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('template errors: Go message, kind and exact range', () => {
  const rows: Array<[string, string, TemplateError['kind'], string, Span]> = [
    [
      'unknown function (Go reports it at parse time)',
      'objects:\n  - name: "{{ nme .project.slug }}"\n',
      'syntax',
      'template: default:2: function "nme" not defined',
      [1, 14, 1, 17],
    ],
    [
      'unclosed action (points at its "{{")',
      'objects:\n  - name: x\n    ns: {{ .environment.slug\n',
      'syntax',
      'template: default:4: unclosed action started at default:3',
      [2, 8, 2, 10],
    ],
    [
      'bad pipeline: a literal after "|" cannot take the piped value',
      'name: "{{ .project.slug | "x" }}"',
      'syntax',
      'template: default:1: non executable command in pipeline stage 2',
      [0, 26, 0, 29],
    ],
    [
      'unknown field on a non-map value (Go points its column at the failing segment)',
      'a: 1\nname: "{{ .environment.name.first }}"\n',
      'execution',
      'template: default:2:22: executing "default" at <.environment.name.first>: can\'t evaluate field first in type interface {}',
      [1, 10, 1, 33],
    ],
    [
      'unknown field on a variable holding a string',
      '{{ $e := .environment.name }}\nname: "{{ $e.first }}"\n',
      'execution',
      'template: default:2:12: executing "default" at <$e.first>: can\'t evaluate field first in type string',
      [1, 10, 1, 18],
    ],
    ['missing {{end}} (points at the open block)', 'a: 1\n{{ if .x }}\nb: 2\n', 'syntax', 'template: default:4: unexpected EOF', [1, 0, 1, 2]],
    ['{{end}} without a block', 'a: 1\n{{ end }}\n', 'syntax', 'template: default:2: unexpected {{end}}', [1, 0, 1, 9]],
    ['{{else}} without a block', '{{ else }}', 'syntax', 'template: default:1: unexpected {{else}}', [0, 0, 0, 10]],
    ['undefined variable', 'x: "{{ $nope }}"', 'syntax', 'template: default:1: undefined variable "$nope"', [0, 7, 0, 12]],
    [
      'wrong argument type for a GitLab function',
      'x: "{{ substr 0 3 .project.id }}"',
      'execution',
      'template: default:1:26: executing "default" at <.project.id>: wrong type for value; expected string; got int',
      [0, 18, 0, 29],
    ],
    [
      'a missing value passed to a string parameter',
      'x: "{{ lower .environment.nme }}"',
      'execution',
      'template: default:1:25: executing "default" at <.environment.nme>: invalid value; expected string',
      [0, 13, 0, 29],
    ],
    [
      'wrong number of arguments',
      'x: "{{ replace "_" .project.slug }}"',
      'execution',
      'template: default:1:7: executing "default" at <replace>: wrong number of args for replace: want 3 got 2',
      [0, 7, 0, 14],
    ],
    [
      'substr where Go would panic (start > end)',
      '\n\nx: "{{ substr 5 2 .project.slug }}"',
      'execution',
      'template: default:3:7: executing "default" at <substr 5 2 .project.slug>: error calling substr: runtime error: slice bounds out of range [5:2]',
      [2, 7, 2, 31],
    ],
    [
      'range over a string',
      '{{ range .environment.name }}{{ end }}',
      'execution',
      'template: default:1:21: executing "default" at <.environment.name>: range can\'t iterate over review/feature-x',
      [0, 9, 0, 26],
    ],
    [
      'eq on an int and a string',
      '{{ if eq .project.id "42" }}x{{ end }}',
      'execution',
      'template: default:1:6: executing "default" at <eq .project.id "42">: error calling eq: incompatible types for comparison: int and string',
      [0, 6, 0, 25],
    ],
    [
      'non-ASCII before the error: Go counts the column in bytes, the range in UTF-16 characters',
      'é: "{{ .environment.name.x }}"',
      'execution',
      'template: default:1:20: executing "default" at <.environment.name.x>: can\'t evaluate field x in type interface {}',
      [0, 7, 0, 26],
    ],
    ['bad character in an action', 'x: {{ .a# }}', 'syntax', "template: default:1: bad character U+0023 '#'", [0, 6, 0, 8]],
  ];
  for (const [name, template, kind, message, [line, character, endLine, endCharacter]] of rows) {
    test(`${name}`, () => {
      const e = failure(template);
      assert.equal(e.kind, kind);
      assert.equal(e.message, message);
      assert.deepEqual(e.range, { start: { line, character }, end: { line: endLine, character: endCharacter } });
    });
  }

  test('an execution error carries Go\'s node text and the cause apart from the message', () => {
    const e = failure('{{ .project.slug.x }}');
    assert.equal(e.kind, 'execution');
    if (e.kind !== 'execution') return;
    assert.equal(e.context, '.project.slug.x');
    assert.equal(e.cause, "can't evaluate field x in type interface {}");
  });

  test('deep nesting fails as a template error instead of crashing', () => {
    const deep = `{{ ${'('.repeat(20000)}1${')'.repeat(20000)} }}`;
    const result = renderGoTemplate(deep, {});
    assert.equal(result.ok, false);
  });
});
