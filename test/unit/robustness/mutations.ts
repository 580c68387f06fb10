/**
 * Hostile variations of real agent files for the robustness tests: random edits, deep nesting, flow
 * collections, broken `if:` expressions and Go template actions, huge lines, invalid UTF-8. All
 * driven by a seeded PRNG, so a failing document can be rebuilt from its seed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { generateVariedAgentConfig } from '../../support/generateConfig';
import { repoRoot } from '../../support/lspClient';

export type Random = () => number;

export const int = (random: Random, below: number): number => Math.floor(random() * below);
export const pick = <T>(random: Random, items: readonly T[]): T => items[int(random, items.length)];

/** The example configurations plus a generated one with something wrong in many entries. */
export function seedConfigs(): string[] {
  const agents = path.join(repoRoot, 'examples', '.gitlab', 'agents');
  const examples = readdirSync(agents).map((agent) => readFileSync(path.join(agents, agent, 'config.yaml'), 'utf8'));
  return [...examples, generateVariedAgentConfig(12, 7)];
}

/** The example template and the test fixtures. */
export function seedTemplates(): string[] {
  const fixtures = path.join(repoRoot, 'test', 'fixtures', 'templates');
  return [
    readFileSync(path.join(repoRoot, 'examples', '.gitlab', 'agents', 'production-agent', 'environment_templates', 'default.yaml'), 'utf8'),
    ...readdirSync(fixtures)
      .sort()
      .map((f) => readFileSync(path.join(fixtures, f), 'utf8')),
  ];
}

/** `depth` nested flow sequences, mappings, or both, closed or not. */
export function nestedFlow(depth: number, shape: 'seq' | 'map' | 'mixed' | 'keys', closed: boolean): string {
  const open = { seq: '[', map: '{a: ', mixed: '{a: [', keys: '{' }[shape];
  const close = { seq: ']', map: '}', mixed: ']}', keys: ': b}' }[shape];
  return open.repeat(depth) + (shape === 'keys' ? 'k' : 'x') + (closed ? close.repeat(depth) : '');
}

/** `depth` nested block mappings or sequences, one level per line. */
export function nestedBlock(depth: number, seq: boolean): string {
  return Array.from({ length: depth }, (_, i) => ' '.repeat(i) + (seq ? '- ' : `k${i}:`)).join('\n') + ' x\n';
}

/** `config.yaml` whose only entry holds `value` under an unknown key, written in flow style. */
export function nestedFlowConfig(value: string): string {
  return `ci_access: {projects: [{id: a, x: ${value}}]}\n`;
}

/**
 * The reported nested flow configuration: nested flow mappings whose keys are themselves flow
 * mappings, on lines that start at column 0 (the yaml library reads each line's `{` as a key), about
 * `bytes` long. Converting it to data stringified every key once per level: cubic in its size.
 */
export function nestedFlowKeysConfig(bytes: number): string {
  let text = 'ci_access: {projects: [{id: a, x: ';
  let depth = 0;
  while (text.length + depth < bytes) text += `\n{k${depth++}: `;
  return text + 'x' + '}'.repeat(depth) + '}]}\n';
}

const CHARS = ['a', 'Z', '0', '-', '_', '$', ' ', '  ', ':', ': ', '"', "'", '#', '{', '}', '[', ']', ',', '\n', '\n  ', '\n- ', '&a', '*a', '!', '|', '>', '?', '%', '@', '`', '\t', '\r', '\u0000', '\u00e9', '\ud83d\ude00', '\ufffd', '<<: *a', '{{', '}}', '\\'];

const IF_VALUES = [
  '('.repeat(1000) + '$A' + ')'.repeat(1000),
  '!'.repeat(1000) + '$A',
  Array.from({ length: 500 }, (_, i) => `$V${i} == "x"`).join(' && '),
  '$A =~ /' + '('.repeat(1000) + 'a' + ')'.repeat(1000) + '/',
  '$A =~ /(a+)+$/',
  '$A =~ /' + 'a*'.repeat(500) + '/',
  '$A == "unterminated',
  '(($A)',
  '$A &&',
  '"' + 'x'.repeat(20_000) + '"',
];

const TEMPLATE_ACTIONS = [
  '{{ ' + '('.repeat(1000) + '.project.slug' + ')'.repeat(1000) + ' }}',
  '{{ if true }}'.repeat(1000) + 'x' + '{{ end }}'.repeat(1000),
  '{{ if false }}' + '{{ else if false }}'.repeat(1000) + '{{ end }}',
  '{{ range $i := 100000000 }}x{{ end }}',
  '{{ .project.slug' + ' | replace "" "aaaaaaaaaa"'.repeat(10) + ' }}',
  '{{ define "a" }}{{ template "a" . }}{{ end }}{{ template "a" . }}',
  '{{ printf "%99999999d" 1 }}',
  '{{ .environment.slug | slugify }}',
  '{{ (((',
  '{{ if }}',
];

/** One random edit of `text`. */
export function mutate(text: string, random: Random): string {
  const at = int(random, text.length + 1);
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const nextBreak = text.indexOf('\n', at);
  const lineEnd = nextBreak === -1 ? text.length : nextBreak + 1;
  const insert = (s: string) => text.slice(0, at) + s + text.slice(at);
  switch (int(random, 12)) {
    case 0:
    case 1:
      return insert(pick(random, CHARS));
    case 2:
      return text.slice(0, at) + text.slice(at + 1 + int(random, 8));
    case 3: // duplicate or drop a line
      return random() < 0.5 ? text.slice(0, lineStart) + text.slice(lineStart, lineEnd) + text.slice(lineStart) : text.slice(0, lineStart) + text.slice(lineEnd);
    case 4:
      return insert(nestedFlow(1 + int(random, 1500), pick(random, ['seq', 'map', 'mixed', 'keys'] as const), random() < 0.5));
    case 5:
      return text.slice(0, lineStart) + nestedBlock(1 + int(random, 300), random() < 0.5) + text.slice(lineStart);
    case 6: // a value turned into a flow collection, maybe unclosed
      return insert(` {${pick(random, ['a', 'id', 'rules', 'ci_job'])}: [${pick(random, ['x', '{b: c}', '[[', '{'])}${random() < 0.5 ? ']}' : ''}`);
    case 7: {
      const ifAt = text.indexOf('if: ', int(random, text.length));
      const value = pick(random, IF_VALUES);
      if (ifAt === -1) return insert(`\n      rules:\n        - if: '${value.replace(/'/g, "''")}'\n`);
      const end = text.indexOf('\n', ifAt);
      return text.slice(0, ifAt + 4) + `'${value.replace(/'/g, "''")}'` + text.slice(end === -1 ? text.length : end);
    }
    case 8:
      return insert(pick(random, TEMPLATE_ACTIONS));
    case 9: // a huge line
      return text.slice(0, lineStart) + pick(random, ['x', '- ', '{a: b, ', '[', 'a: ', '"', '#']).repeat(1 + int(random, 20_000)) + '\n' + text.slice(lineStart);
    case 10: // many keys in one mapping
      return text.slice(0, lineStart) + Array.from({ length: 1 + int(random, 3000) }, (_, i) => `${' '.repeat(int(random, 3) * 2)}k${i % 50}: v`).join('\n') + '\n' + text.slice(lineStart);
    default: // aliases and merge keys
      return insert(pick(random, ['&a [x]', '*a', '<<: *a', '&a {b: &b [*a]}', '? [a, b]\n: c', '{[a]: b}', '&x\n', '*undefined']));
  }
}

/** Bytes that are not UTF-8 put into the encoded text (lone continuation, cut sequence, overlong, surrogate). */
export function withInvalidUtf8(text: string, random: Random): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const at = int(random, bytes.length + 1);
  const bad = pick(random, [[0xff], [0x80], [0xc3], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xfe, 0xfe]]);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)]);
}
