// docs/gitlab-behaviour.md#variable-expansion: ExpandVariables — `$VAR`, `${VAR}`, `%VAR%`; `expand` (unknown → "") and `expand_existing`
// (unknown → left as written); single left-to-right pass; references reported with ranges.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { expandedText, expandVariables, findVariableReferences, hasVariableReference, replaceReferences, type ExpansionMode } from '../../../server/src/engine/vars/index';
import { seededRandom } from '../../support/generateConfig';

const VARS = { CI_ENVIRONMENT_SLUG: 'review-x-abc123', A: 'a', EMPTY: '', NESTED: '$A', KUBECONFIG: { value: '/tmp/kube', file: true } };

// docs/gitlab-behaviour.md#variable-expansion
describe('expansion', () => {
  const rows: Array<[string, string, ExpansionMode, string]> = [
    ['docs example: the next char after a name terminates it', 'myapp-$CI_ENVIRONMENT_SLUG', 'expand', 'myapp-review-x-abc123'],
    ['`-app` after the name is kept', '$CI_ENVIRONMENT_SLUG-app', 'expand', 'review-x-abc123-app'],
    ['braces', '${A}b', 'expand', 'ab'],
    ['percent (same on every OS)', '%A%b', 'expand', 'ab'],
    ['a name runs over letters, digits and `_`: `$A_1` is another variable', '$A_1', 'expand', ''],
    ['expand: unknown → ""', 'x-$UNKNOWN-y', 'expand', 'x--y'],
    ['expand_existing: unknown → left as written', 'x-$UNKNOWN-${UNKNOWN}-%UNKNOWN%', 'expand_existing', 'x-$UNKNOWN-${UNKNOWN}-%UNKNOWN%'],
    ['expand_existing still expands known ones', '$A-$UNKNOWN', 'expand_existing', 'a-$UNKNOWN'],
    ['empty value replaces with "" in both modes', '[$EMPTY]', 'expand_existing', '[]'],
    ['single pass: a value containing `$A` is not expanded again', '$NESTED', 'expand', '$A'],
    ['no `$$` escape: `$$A` is `$` + value', '$$A', 'expand', '$a'],
    ['`$` before a non-name character stays', 'cost: $5 and $', 'expand', 'cost: $5 and $'],
    ['a name must start with a letter or `_`', '$1A', 'expand', '$1A'],
    ['unclosed braces are not a reference', '${A', 'expand', '${A'],
    ['`%` without a closing `%` stays', '100%A', 'expand', '100%A'],
    ['names are case-sensitive', '$a', 'expand', ''],
    ['file variables expand to their value by default', '$KUBECONFIG', 'expand', '/tmp/kube'],
  ];
  for (const [name, text, mode, expected] of rows) {
    test(`${name}: ${JSON.stringify(text)} (${mode}) → ${JSON.stringify(expected)}`, () => {
      assert.equal(expandVariables(text, VARS, { mode }).text, expected);
    });
  }
  test('expand_file_refs: false leaves a file variable reference as written', () => {
    assert.equal(expandVariables('${KUBECONFIG}', VARS, { expandFileRefs: false }).text, '${KUBECONFIG}');
  });
  test('expandedText (the namespace of every simulated rule) is the text of expandVariables with the default options', () => {
    for (const [, text, mode] of rows) if (mode === 'expand') assert.equal(expandedText(text, VARS), expandVariables(text, VARS).text, text);
    const random = seededRandom(16);
    const pieces = ['$', '${', '}', '%', 'A', 'EMPTY', 'NESTED', 'KUBECONFIG', 'constructor', '_1', '-', 'x', '$$', '{'];
    const sources = [VARS, new Map(Object.entries(VARS)), {}];
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 8) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const variables = sources[i % sources.length];
      assert.equal(expandedText(text, variables), expandVariables(text, variables).text, text);
    }
  });
  test('a Map works as the variable source; Object.prototype names are unknown', () => {
    assert.equal(expandVariables('$A$constructor', new Map([['A', 'x']])).text, 'x');
    assert.equal(expandVariables('$constructor', {}, { mode: 'expand_existing' }).text, '$constructor');
  });
});

// docs/gitlab-behaviour.md#variable-expansion
describe('references with ranges (for the editor)', () => {
  test('every syntax, with whole and name ranges', () => {
    const refs = findVariableReferences('a $X ${Y} %Z%');
    assert.deepEqual(
      refs.map((r) => [r.name, r.syntax, r.range.start, r.range.end, r.nameRange.start, r.nameRange.end]),
      [
        ['X', 'dollar', 2, 4, 3, 4],
        ['Y', 'braces', 5, 9, 7, 8],
        ['Z', 'percent', 10, 13, 11, 12],
      ],
    );
  });
  test('expansion reports what happened to each reference', () => {
    const result = expandVariables('$A $UNKNOWN ${KUBECONFIG}', VARS, { mode: 'expand_existing', expandFileRefs: false });
    assert.deepEqual(
      result.references.map((r) => [r.name, r.outcome, r.defined]),
      [
        ['A', 'expanded', true],
        ['UNKNOWN', 'kept', false],
        ['KUBECONFIG', 'kept', true],
      ],
    );
    assert.equal(expandVariables('$UNKNOWN', VARS).references[0]!.outcome, 'blank');
  });
});

// The scanner of expand.ts is written out by hand; GitLab's grammar is a regexp. These tests hold the
// scanner to that regexp itself, `ExpandVariables::VARIABLES_REGEXP` in lib/expand_variables.rb
// (https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/expand_variables.rb):
// /\$([a-zA-Z_][a-zA-Z0-9_]*)|\${\g<1>}|%\g<1>%/, its `\g<1>` (the first group's pattern) written out.
describe("the reference scanner is GitLab's VARIABLES_REGEXP", () => {
  const NAME = '[a-zA-Z_][a-zA-Z0-9_]*';
  const variablesRegexp = () => new RegExp(`\\$(${NAME})|\\$\\{(${NAME})\\}|%(${NAME})%`, 'g');
  const pieces = ['$', '${', '}', '{', '%', '%%', '$$', 'A', 'a_1', 'Z9', '_', '1', '-', ' ', 'x', 'é', '\n', '$A', '%B%', '${C}'];
  function randomTexts(seed: number, count: number): string[] {
    const random = seededRandom(seed);
    return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(random() * 10) }, () => pieces[Math.floor(random() * pieces.length)]).join(''));
  }

  test('findVariableReferences: the same names, syntaxes and ranges as the regexp, on 10,000 texts', () => {
    let references = 0;
    for (const text of randomTexts(18, 10_000)) {
      const expected = [...text.matchAll(variablesRegexp())].map((m) => {
        const syntax = m[1] !== undefined ? 'dollar' : m[2] !== undefined ? 'braces' : 'percent';
        const name = (m[1] ?? m[2] ?? m[3])!;
        const nameStart = m.index + (syntax === 'braces' ? 2 : 1);
        return { name, syntax, range: { start: m.index, end: m.index + m[0].length }, nameRange: { start: nameStart, end: nameStart + name.length } };
      });
      references += expected.length;
      assert.deepEqual(findVariableReferences(text), expected, JSON.stringify(text));
    }
    assert.ok(references > 5_000, `${references} references in the 10,000 texts`);
  });

  test('hasVariableReference: whether the regexp matches at all, on 10,000 texts', () => {
    let withReference = 0;
    for (const text of randomTexts(19, 10_000)) {
      const expected = variablesRegexp().test(text);
      if (expected) withReference++;
      assert.equal(hasVariableReference(text), expected, JSON.stringify(text));
    }
    assert.ok(withReference > 1_000 && withReference < 9_000, `${withReference} of 10,000 texts refer to a variable`);
  });

  test('replaceReferences: a replace with the regexp, a reference left as written where the replacement is undefined, on 10,000 texts', () => {
    const values: Record<string, string> = { A: 'v$A', a_1: '', Z9: '%B%', _: '${C}' };
    const replacement = (name: string): string | undefined => (Object.hasOwn(values, name) ? values[name] : undefined);
    for (const text of randomTexts(20, 10_000)) {
      const expected = text.replace(variablesRegexp(), (whole: string, a?: string, b?: string, c?: string) => replacement((a ?? b ?? c)!) ?? whole);
      assert.equal(replaceReferences(text, replacement), expected, JSON.stringify(text));
    }
  });
});
