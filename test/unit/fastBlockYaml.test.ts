/**
 * Differential test of the fast block-YAML reader (server/src/engine/yaml/fastBlockYaml.ts):
 * on every fixture, on generated configurations and on tens of thousands of mutated
 * documents, either the reader declines (and `composeYaml` uses the library), or it builds exactly
 * the library's documents — node classes, every node's range, scalar values, types, sources and
 * formats, comments and blank-line marks, the document's range and comments — and `parseYaml`
 * gives the same data, diagnostics and syntax verdict. The reader is called in its throwing form, so
 * a fault in it fails the test instead of passing for a decline.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { isDocument, isMap, isPair, isScalar, isSeq, type Document } from 'yaml';
import { composeYaml, composeYamlWithLibrary } from '../../server/src/engine/yaml/boundedYaml';
import type { ComposedYaml } from '../../server/src/engine/yaml/composedYaml';
import { readFastBlockYaml as fastComposeYaml } from '../../server/src/engine/yaml/fastBlockYaml';
import { GITLAB_YAML, parseComposedYaml, parseYaml } from '../../server/src/engine/yaml/yamlDocument';
import { generateAgentConfig, generateVariedAgentConfig, seededRandom } from '../support/generateConfig';

const root = path.resolve(__dirname, '..', '..');

/** Every YAML file under a directory (recursively), and every ```yaml block of its Markdown files. */
function yamlTexts(dir: string): { name: string; text: string }[] {
  const out: { name: string; text: string }[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d).sort()) {
      if (entry === 'node_modules') continue;
      const file = path.join(d, entry);
      if (statSync(file).isDirectory()) walk(file);
      else if (/\.ya?ml$/.test(entry)) out.push({ name: path.relative(root, file), text: readFileSync(file, 'utf8') });
      else if (entry.endsWith('.md')) {
        const md = readFileSync(file, 'utf8');
        let k = 0;
        for (const block of md.matchAll(/```ya?ml\n([\s\S]*?)```/g)) out.push({ name: `${path.relative(root, file)}#${k++}`, text: block[1] });
      }
    }
  };
  walk(dir);
  return out;
}

const fixtures = [...yamlTexts(path.join(root, 'test', 'fixtures')), ...yamlTexts(path.join(root, 'examples')), ...yamlTexts(path.join(root, 'docs')), { name: 'README.md', text: '' }];
const readmeBlocks = ['README.md', ...readdirSync(path.join(root, 'docs'), { recursive: true }).map(String).filter((f) => f.endsWith('.md')).sort().map((f) => path.join('docs', f)), 'CONTRIBUTING.md', 'ARCHITECTURE.md'].flatMap((file) => [...readFileSync(path.join(root, file), 'utf8').matchAll(/```ya?ml\n([\s\S]*?)```/g)].map((m, k) => ({ name: `${file}#${k}`, text: m[1] }))).filter((block) => !fixtures.some((f) => f.name === block.name));
fixtures.push(...readmeBlocks);

/** Agent configurations and templates that are valid YAML: the ones the fast reader must read itself (not decline). */
const agentFiles = fixtures.filter((f) => /\.gitlab\/agents\/|fixtures\/templates\//.test(f.name) && !parseYaml(f.text).hasSyntaxErrors);

/** Handwritten shapes around comments, blank lines and empty values (where the library's placement is subtle). */
const shapes = [
  '# top\n\na: 1 # c1\n# between\nb:\n  # inner\n  - x\n  - y # cy\n  # after y\n# out\nc: "q" # end\n# trailing\n',
  'a:\n\n  \n  # c\n\n  - x\n\n  # c2\n  - y\nb:\nc: 1\n',
  'a: {} # c\nb: []\nc:\n  d: [ ]  \n  e: {}\n# t\n',
  'a:\n  b: 1\n  # c\nd: 2\n',
  'a:\n  b: 1\n# c\nd: 2\n',
  'a:\n- x\n# c\nb: 1\n',
  'x:\n  a:\n  - x\n  # c\n  b: 1\n',
  'a:\n  - b: 1\n    # c\n  - b: 2\n\n    c: 3 # x\n\n# end\n\n',
  'a:\n\n# c\n\nb: 1\n',
  'a: # c\n\n  b: 1\n',
  'a:\n  b:\n  # c\nc: 1',
  'a:\n  b:\n    # c\n  c: 1',
  "a: 'it''s'\n\"b c\": \"d e\"\n'k': v\n",
  'a: yes\nb: 0x1F\nc: 010\nd: 1e3\ne: 1:30\nf: ~\ng: 2001-12-14\nh: .inf\ni: 0b101\nj: 1_000\n',
  '- a\n- b: 1\n  c: 2\n-  d\n',
  'k:\n- a\n-   b\n',
  'a: 1\nb: 2',
  '# only a comment\n',
  '',
  'x: 1 #c\n#c2\n',
  'a: [x, y ,z]  # c\nb: [ p ]\nc: [q,r]\nd:\n  - [1, yes, ~, 0x1f]\n',
  // Indicators inside a flow item's text, not at its start: environments: [production, review/*].
  'environments: [production, review/*, a&b, c!d, e|f, g>h, i%j, k@l, m`n, o?p, q-r]\n',
  // One-line flow mappings: `access_as: {ci_job: {}}`; each value ends at the `,` or `}` after it, spaces included.
  'access_as: {ci_job: {}}\nb: { x: 1 , y: b }  # c\nc: {x: [p, q], z: {y: 1}}\nd: {a: {b: c} , d: [x] , e: {} }\n',
  '- {a: 1}\n- {}\n- {a: [ ]}\n-   {k: yes, n: ~, o: 0x1f, t: 2001-12-14}\n',
];

/** A structural comparison that names the first difference: class, range, scalar fields, comments, then children. */
function sameNode(a: unknown, b: unknown, where: string): void {
  if (a === null || b === null || a === undefined || b === undefined) {
    assert.equal(a, b, `${where}: ${String(a)} vs ${String(b)}`);
    return;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  assert.equal(x.constructor, y.constructor, `${where}: class`);
  assert.deepEqual(Object.keys(x).sort(), Object.keys(y).sort(), `${where}: properties`);
  if (isPair(a)) {
    sameNode(a.key, (b as typeof a).key, `${where}.key`);
    sameNode(a.value, (b as typeof a).value, `${where}.value`);
    return;
  }
  assert.deepEqual(x.range, y.range, `${where}: range`);
  for (const k of ['comment', 'commentBefore', 'spaceBefore', 'type', 'source', 'format', 'tag', 'anchor', 'flow']) assert.deepEqual(x[k], y[k], `${where}: ${k}`);
  if (isScalar(a)) {
    assert.deepEqual(a.value, (b as typeof a).value, `${where}: value`);
    return;
  }
  if (isMap(a) || isSeq(a)) {
    const bi = (b as typeof a).items;
    assert.equal(a.items.length, bi.length, `${where}: items`);
    a.items.forEach((item, k) => sameNode(item, bi[k], `${where}[${k}]`));
  }
}

function sameDocuments(fast: ComposedYaml, lib: ComposedYaml, text: string): void {
  assert.equal(fast.ok, lib.ok);
  if (!fast.ok || !lib.ok) return;
  assert.equal(fast.docs.length, lib.docs.length, 'documents');
  fast.docs.forEach((d: Document.Parsed, i) => {
    const l = lib.docs[i];
    assert.ok(isDocument(d));
    assert.deepEqual(d.range, l.range, 'document range');
    assert.equal(d.comment, l.comment, 'document comment');
    assert.equal(d.commentBefore, l.commentBefore, 'document commentBefore');
    assert.deepEqual(d.errors, l.errors);
    assert.deepEqual(d.warnings, l.warnings);
    assert.equal(d.directives.docStart, l.directives.docStart);
    assert.equal(d.directives.yaml.version, l.directives.yaml.version);
    assert.deepEqual({ ...d.options, _directives: null }, { ...l.options, _directives: null });
    assert.equal(d.schema.name, l.schema.name);
    assert.deepEqual(Object.keys(d).sort(), Object.keys(l).sort());
    sameNode(d.contents, l.contents, 'contents');
    assert.deepEqual(d.toJS(), l.toJS());
  });
  // What every caller reads: parseYaml's data, diagnostics and verdict.
  const pf = parseComposedYaml(text, fast);
  const pl = parseComposedYaml(text, lib);
  assert.deepEqual(pf.value, pl.value);
  assert.deepEqual(pf.diagnostics, pl.diagnostics);
  assert.equal(pf.hasSyntaxErrors, pl.hasSyntaxErrors);
}

/** Compares on one text; true when the fast reader read it (false: it declined). */
function check(text: string, label: string): boolean {
  const fast = fastComposeYaml(text, GITLAB_YAML);
  if (!fast) return false;
  try {
    sameDocuments(fast, composeYamlWithLibrary(text, GITLAB_YAML), text);
  } catch (err) {
    throw new Error(`${label}: ${(err as Error).message}\n--- text ---\n${JSON.stringify(text)}`);
  }
  return true;
}

const MUTATION_CHARS = ['&', '*', '!', '|', '>', '{', '}', '[', ']', '"', "'", '#', ':', '-', ' ', '  ', '\t', '\r', '?', ',', '%', '@', '`', '\\', 'é', '😀', '\u00a0', '\u2028', '\uFEFF', '~', '<<', '0x', '---', '...', '\n'];
const INSERT_LINES = ['f: [a,b ,  c]', '- [x, 1]', 'g: [a, b] # c', '# note', '  # indented note', '    # deeper', '', '   ', '- x', 'k: v', '  k: v', '    - y', 'z:', '  z:', '---', '<<: *a', 'a: &a 1', "q: 'x''y'", 'q: "a\\tb"', 'e: []', 'e: {}', 'm: |', '  text', 'f: [a, b]', 'h: {a: 1, b: [x, y]}', '- {ci_job: {}}', 'i: { a: {b: c} , d: yes }  # c'];

/** One to three random edits of `text`: lines deleted, duplicated, swapped, re-indented, characters inserted, comments, CRLF. */
function mutate(text: string, random: () => number): string {
  const int = (n: number) => Math.floor(random() * n);
  let lines = text.split('\n');
  const edits = 1 + int(3);
  for (let e = 0; e < edits; e++) {
    const at = int(Math.max(1, lines.length));
    switch (int(12)) {
      case 0:
        lines.splice(at, 1);
        break;
      case 1:
        lines.splice(at, 0, lines[at] ?? '');
        break;
      case 2:
        if (at + 1 < lines.length) [lines[at], lines[at + 1]] = [lines[at + 1], lines[at]];
        break;
      case 3: {
        const delta = [-2, -1, 1, 2, 4][int(5)];
        const line = lines[at] ?? '';
        lines[at] = delta > 0 ? ' '.repeat(delta) + line : line.replace(new RegExp(`^ {0,${-delta}}`), '');
        break;
      }
      case 4:
      case 5: {
        const line = lines[at] ?? '';
        const p = int(line.length + 1);
        lines[at] = line.slice(0, p) + MUTATION_CHARS[int(MUTATION_CHARS.length)] + line.slice(p);
        break;
      }
      case 6:
      case 7:
        lines.splice(at, 0, ' '.repeat(int(3) * 2) + INSERT_LINES[int(INSERT_LINES.length)].trimStart());
        break;
      case 8:
        lines[at] = (lines[at] ?? '') + [' # trailing', '  ', ' #', '#x', ' # a: b'][int(5)];
        break;
      case 9:
        lines.splice(at, 0, INSERT_LINES[int(INSERT_LINES.length)]);
        break;
      case 10: {
        const line = lines[at] ?? '';
        lines[at] = line.replace(/: (\S.*)$/, (_, v: string) => `: ${[`"${v}"`, `'${v}'`, `${v} `, '', '{}', '[ ]', 'yes', '0o7', '012', '1:20', '-1.5e3', '~', `[${v}]`, `[ ${v} , b ]`, `[${v},]`, `[a, [${v}]]`, `[a: ${v}]`, `[${v}, 'q']`, `[${v} #c]`, `{${v}: 1}`, `{a: ${v}}`, `{ k: ${v} , b: [x] }`, `{a: {b: ${v}}}`, `{a: ${v},}`, `{a:${v}}`, `{${v}}`][int(26)]}`);
        break;
      }
      default:
        if (int(4) === 0) return lines.join('\r\n');
        lines = lines.slice(0, Math.max(1, lines.length - int(3)));
    }
  }
  const out = lines.join('\n');
  return int(5) === 0 ? out.replace(/\n$/, '') : out;
}

describe('fast block-YAML reader, differential against the yaml library', () => {
  it('reads every agent configuration and template fixture itself, exactly as the library', () => {
    assert.ok(agentFiles.length >= 9, `fixtures found: ${agentFiles.length}`);
    for (const { name, text } of agentFiles) assert.ok(check(text, name), `declined: ${name}`);
  });

  it('every other fixture, example and documentation block: the same documents or declined', () => {
    let read = 0;
    for (const { name, text } of fixtures) if (check(text, name)) read++;
    assert.ok(read >= agentFiles.length);
  });

  it('handwritten shapes around comments, blank lines and empty values are read, exactly as the library', () => {
    for (const [k, text] of shapes.entries()) assert.ok(check(text, `shape ${k}`), `declined: shape ${k}`);
  });

  it('generated configurations of several sizes are read, exactly as the library', () => {
    for (const n of [1, 10, 100, 1000]) assert.ok(check(generateAgentConfig(n), `generateAgentConfig(${n})`), `declined: ${n}`);
    for (const n of [1, 20, 200]) assert.ok(check(generateAgentConfig(n, { rules: false }), `no rules ${n}`));
    for (const seed of [1, 2, 3]) check(generateVariedAgentConfig(30, seed), `varied ${seed}`);
  });

  it('20,000 mutated documents (seeded): the same documents whenever the fast reader reads one', () => {
    const seeds = [...agentFiles.map((f) => f.text), ...shapes, generateAgentConfig(3), generateVariedAgentConfig(8, 5)];
    const random = seededRandom(16);
    let read = 0;
    let withFlowItems = 0;
    let withFlowPairs = 0;
    let withComments = 0;
    const total = 20_000;
    for (let n = 0; n < total; n++) {
      const base = seeds[Math.floor(random() * seeds.length)];
      const text = mutate(base, random);
      if (check(text, `mutation ${n}`)) {
        read++;
        if (/(?:- |: )\[ *[^\] ]/.test(text)) withFlowItems++;
        if (/(?:- |: )\{ *[^} ]/.test(text)) withFlowPairs++;
        if (/^ *#/m.test(text)) withComments++;
      }
    }
    // Most mutations stay inside the subset: the comparison must be exercised, not only the declines.
    console.log(`# fast reader read ${read} of ${total} mutated documents (${withComments} with comment lines, ${withFlowItems} with flow sequence items, ${withFlowPairs} with flow mapping pairs); declined ${total - read}`);
    assert.ok(withComments > 1000 && withFlowItems > 100 && withFlowPairs > 100, 'comments and flow collections must be exercised');
    assert.ok(read > total * 0.3, `read ${read} of ${total}`);
    assert.ok(read < total, 'some mutations must leave the subset');
  });

  it('reads the data and the duplicate keys as it composes, exactly as toJS and inspectMaps make them', () => {
    // Keys that toJS defines rather than assigns (a key the object has: inherited or given before),
    // keys that are numbers, booleans or null, a key given three times, duplicates in nested maps
    // (two on line 15, in flow mappings).
    const text = [
      '__proto__: polluted',
      'toString: x',
      'constructor: [a, b]',
      '1: number',
      '"1": string',
      'true: yes',
      '~: null key',
      'b: 1',
      'nested:',
      '  b: 2',
      '  b: 3',
      '  list:',
      '    - b: 1',
      '      b:',
      '    - {}',
      '    - {b: 1, b: {__proto__: x, c: 2, c: 3}}',
      'b: 4',
      'b:',
      '  deep: []',
      '',
    ].join('\n');
    assert.ok(check(text, 'keys'), 'declined: keys');
    const parsed = parseYaml(text);
    const value = parsed.value as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(value), Object.prototype, 'a __proto__ key is data, not the prototype');
    assert.equal(Object.getOwnPropertyDescriptor(value, '__proto__')?.value, 'polluted');
    assert.deepEqual(value.b, { deep: [] });
    assert.deepEqual(parsed.diagnostics.map((d) => `${d.code} ${d.range.start.line}`), ['yaml.duplicateKey 10', 'yaml.duplicateKey 13', 'yaml.duplicateKey 15', 'yaml.duplicateKey 15', 'yaml.duplicateKey 16', 'yaml.duplicateKey 17']);
    // A timestamp key would be named by the library's stringifier: the library reads the file.
    assert.equal(fastComposeYaml('2001-12-14: day\n', GITLAB_YAML), null);
  });

  it('composeYaml and parseYaml go through the fast reader and give what the library path gives', () => {
    const text = generateAgentConfig(50);
    const viaFast = composeYaml(text, GITLAB_YAML);
    assert.ok(viaFast.ok);
    sameDocuments(viaFast, composeYamlWithLibrary(text, GITLAB_YAML), text);
    assert.deepEqual(parseYaml(text).value, parseComposedYaml(text, composeYamlWithLibrary(text, GITLAB_YAML)).value);
    // Options the reader does not know: the library's path, unchanged.
    const other = composeYaml(text, { version: '1.2', uniqueKeys: false, prettyErrors: false });
    assert.ok(other.ok);
  });

  it('the comparison catches a range that is off by one (the test can fail)', () => {
    const text = generateAgentConfig(2);
    const fast = fastComposeYaml(text, GITLAB_YAML);
    assert.ok(fast && fast.ok);
    const map = fast.docs[0].contents;
    assert.ok(isMap(map));
    const pair = map.items[0];
    assert.ok(isPair(pair) && isMap(pair.value));
    const inner = pair.value.items[0];
    assert.ok(isPair(inner) && isSeq(inner.value));
    const entry = inner.value.items[1];
    assert.ok(isMap(entry) && isPair(entry.items[0]) && isScalar(entry.items[0].value));
    entry.items[0].value.range![1] += 1;
    assert.throws(() => sameDocuments(fast, composeYamlWithLibrary(text, GITLAB_YAML), text), /range/);
    // And a comment that went to the wrong node.
    const again = fastComposeYaml('a: 1\n# c\nb: 2\n', GITLAB_YAML);
    assert.ok(again && again.ok);
    const second = (again.docs[0].contents as unknown as { items: { key: { commentBefore?: string } }[] }).items[1].key;
    second.commentBefore = undefined;
    assert.throws(() => sameDocuments(again, composeYamlWithLibrary('a: 1\n# c\nb: 2\n', GITLAB_YAML), 'a: 1\n# c\nb: 2\n'));
  });
});
