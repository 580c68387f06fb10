// docs/gitlab-behaviour.md#template-variables-and-functions: environment templates are Go `text/template`. Every expected value in the tables below was
// produced by Go 1.26's text/template (default `missingkey`, data as map[string]interface{}, GitLab's
// functions registered with sprig's signatures) and the renderer is checked to match it exactly.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { renderGoTemplate } from '../../../server/src/engine/template/render/index';

function render(template: string, data: unknown): string {
  const result = renderGoTemplate(template, data);
  if (!result.ok) assert.fail(result.error.message);
  return result.text;
}

const DATA = {
  environment: { name: 'review/feature-x', slug: 'review-feature-x-bjrazc', tier: 'development', id: 3 },
  project: { id: 42, slug: 'My_App', path: 'group/My_App' },
  agent: { id: 7, name: 'agent-1' },
  user: { username: 'alice' },
  tags: ['a', 'b', 'c'],
  labels: { team: 'x', app: 'y' },
  empty: '',
  zero: 0,
  none: null,
  list0: [],
  map0: {},
};

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('Go text/template semantics (expected values from Go 1.26)', () => {
  const rows: Array<[string, string, string]> = [
    ["field access on nested maps", "{{ .environment.slug }}/{{ .project.id }}", "review-feature-x-bjrazc/42"],
    ["root and dot", "{{ $.agent.name }} {{ with .agent }}{{ .name }}{{ end }}", "agent-1 agent-1"],
    ["missing key prints <no value>", "[{{ .environment.nme }}]", "[<no value>]"],
    ["field of a missing key is missing too", "[{{ .nope.deeper.still }}]", "[<no value>]"],
    ["nil value prints <no value>", "[{{ .none }}]", "[<no value>]"],
    ["print/printf see nil", "{{ print .nope }} {{ printf \"%v|%s\" .nope .nope }}", "<nil> <nil>|%!s(<nil>)"],
    ["int, bool and list formatting like %v", "{{ .project.id }} {{ true }} {{ .tags }} {{ .labels }}", "42 true [a b c] map[app:y team:x]"],
    ["float literals print like Go", "{{ 1.0 }} {{ 2.5 }} {{ 1e6 }} {{ 100000.0 }}", "1 2.5 1e+06 100000"],
    ["number literal forms", "{{ 0x1F }} {{ 0o17 }} {{ 017 }} {{ 0b11 }} {{ 1_000 }} {{ -3 }} {{ 'a' }}", "31 15 15 3 1000 -3 97"],
    ["string escapes and raw strings", "{{ \"tab\\there\\x41\\u00e9\" }}|{{ `raw\\n` }}", "tab\thereA\u00e9|raw\\n"],
    ["pipeline passes the value as the last argument", "{{ .project.slug | lower }}|{{ .project.slug | replace \"_\" \"-\" | lower }}", "my_app|my-app"],
    ["printf in a pipeline", "{{ .project.id | printf \"%s-%d\" .environment.slug }}", "review-feature-x-bjrazc-42"],
    ["parenthesized sub-expression", "{{ lower (replace \"_\" \"-\" .project.slug) }}", "my-app"],
    ["if / else if / else", "{{ if eq .environment.tier \"production\" }}P{{ else if eq .environment.tier \"development\" }}D{{ else }}O{{ end }}", "D"],
    ["Go truthiness: empty string, 0, nil, empty list and map are false", "{{ if .empty }}1{{ end }}{{ if .zero }}2{{ end }}{{ if .none }}3{{ end }}{{ if .list0 }}4{{ end }}{{ if .map0 }}5{{ end }}{{ if .nope }}6{{ end }}{{ if .tags }}T{{ end }}", "T"],
    ["with rebinds dot; else when empty", "{{ with .environment }}{{ .name }}{{ end }}|{{ with .empty }}x{{ else }}empty{{ end }}", "review/feature-x|empty"],
    ["range over a list with index and element", "{{ range $i, $t := .tags }}{{ $i }}={{ $t }} {{ end }}", "0=a 1=b 2=c "],
    ["range over a map visits keys in sorted order", "{{ range $k, $v := .labels }}{{ $k }}:{{ $v }} {{ end }}", "app:y team:x "],
    ["range else on an empty list", "{{ range .list0 }}x{{ else }}none{{ end }}", "none"],
    ["range with break and continue", "{{ range $i, $t := .tags }}{{ if eq $i 1 }}{{ continue }}{{ end }}{{ $t }}{{ if eq $t \"c\" }}{{ break }}{{ end }}{{ end }}", "ac"],
    ["variables, assignment and scope", "{{ $x := 1 }}{{ if true }}{{ $x = 2 }}{{ end }}{{ $x }}", "2"],
    ["eq with several arguments", "{{ eq .environment.tier \"staging\" \"development\" }} {{ eq 1 2 3 }}", "true false"],
    ["ne lt le gt ge", "{{ ne 1 2 }} {{ lt 1 2 }} {{ le 2 2 }} {{ gt \"b\" \"a\" }} {{ ge 1 2 }}", "true true true true false"],
    ["and/or return an operand, like Go", "{{ and 1 0 2 }}|{{ and 1 2 }}|{{ or 0 \"\" 3 }}|{{ or 0 \"\" }}|{{ or .nope \"fallback\" }}", "0|2|3||fallback"],
    ["not", "{{ not .empty }} {{ not .tags }}", "true false"],
    ["len and index", "{{ len .tags }} {{ len .labels }} {{ len \"h\u00e9llo\" }} {{ index .tags 1 }} {{ index .labels \"team\" }} [{{ index .labels \"nope\" }}]", "3 2 6 b x [<no value>]"],
    ["printf verbs", "{{ printf \"%s|%d|%v|%q|%%|%5s|%-4d|%03d|%x|%t\" \"a\" 42 .tags \"q\" \"r\" 7 5 255 true }}", "a|42|[a b c]|\"q\"|%|    r|7   |005|ff|true"],
    ["printf with a wrong verb or missing argument", "{{ printf \"%d %s\" \"x\" }}", "%!d(string=x) %!s(MISSING)"],
    ["print and println", "{{ print 1 2 \"a\" \"b\" 3 }}|{{ println \"x\" 1 }}", "1 2ab3|x 1\n"],
    ["whitespace trim markers", "a  \n {{- \"b\" -}} \n  c", "abc"],
    ["comments", "a{{/* a comment */}}b {{- /* trimmed */ -}} c", "abc"],
    ["trim marker needs a space: {{-3}} is a number", "{{-3}}", "-3"],
    ["define and template", "{{ define \"ns\" }}{{ .environment.slug }}-{{ .project.id }}{{ end }}{{ template \"ns\" . }}", "review-feature-x-bjrazc-42"],
  ];
  for (const [name, template, expected] of rows) {
    test(`${name}: ${JSON.stringify(template)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(render(template, DATA), expected);
    });
  }
});

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('missing keys (Go default missingkey on map[string]interface{})', () => {
  test('a missing key is not an error: it prints "<no value>", as KAS would render it', () => {
    assert.equal(render('name: "{{ .environment.nme }}"', DATA), 'name: "<no value>"');
  });
  test('JavaScript undefined values count as missing keys', () => {
    assert.equal(render('[{{ .a }}]', { a: undefined }), '[<no value>]');
  });
});

// docs/gitlab-behaviour.md#template-variables-and-functions
describe('output mapping back to the template', () => {
  test('literal text maps character by character; computed text maps to its action', () => {
    const result = renderGoTemplate('ab{{ .x }}cd', { x: 'XYZ' });
    assert.ok(result.ok);
    assert.deepEqual(
      result.segments.map((s) => [s.outStart, s.outEnd, s.srcStart, s.srcEnd, s.literal]),
      [
        [0, 2, 0, 2, true],
        [2, 5, 2, 10, false],
        [5, 7, 10, 12, true],
      ],
    );
  });
});
