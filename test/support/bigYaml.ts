/**
 * Large generated YAML documents for the robustness tests: random block and flow collections with
 * comments, anchors, block scalars and quoted strings; deep nesting; very long scalars; and any of
 * these broken at random places. Seeded, so a failing document can be rebuilt from its seed.
 */
import { seededRandom } from './generateConfig';

type Random = () => number;
const int = (random: Random, below: number): number => Math.floor(random() * below);
const pick = <T>(random: Random, items: readonly T[]): T => items[int(random, items.length)];

export type BigYamlShape = 'random' | 'deep' | 'longScalars' | 'broken';
export const BIG_YAML_SHAPES: readonly BigYamlShape[] = ['random', 'deep', 'longScalars', 'broken'];

const WORDS = ['ci_access', 'projects', 'groups', 'id', 'default_namespace', 'access_as', 'ci_job', 'rules', 'if', 'environments', 'agent', 'name', 'observability', 'x', 'value'];

function word(random: Random): string {
  return `${pick(random, WORDS)}${int(random, 100_000)}`;
}

function scalar(random: Random, indent: number): string[] {
  switch (int(random, 10)) {
    case 0:
      return [`"${word(random)} ${word(random)}\\n"`];
    case 1:
      return [`'${word(random)}''s'`];
    case 2:
      return ['|', ...Array.from({ length: 1 + int(random, 4) }, () => `${' '.repeat(indent + 2)}${word(random)} ${word(random)}`)];
    case 3:
      return [`&a${int(random, 50)} ${word(random)}`];
    case 4:
      return [`*a${int(random, 50)}`];
    case 5:
      return [`[${word(random)}, {${word(random)}: ${word(random)}}]`];
    case 6:
      return [`${int(random, 1_000_000)} # ${word(random)}`];
    default:
      return [word(random)];
  }
}

/** Lines of one random block collection at `indent`, nested at most `depthLeft` more levels. */
function block(random: Random, indent: number, depthLeft: number, out: string[]): void {
  const seq = random() < 0.3;
  const items = 1 + int(random, 6);
  const pad = ' '.repeat(indent);
  for (let i = 0; i < items; i++) {
    if (random() < 0.05) out.push(`${pad}# ${word(random)}`);
    const head = seq ? `${pad}- ${word(random)}:` : `${pad}${word(random)}:`;
    if (depthLeft > 0 && random() < 0.35) {
      out.push(head);
      block(random, indent + (seq ? 4 : 2), depthLeft - 1, out);
    } else {
      const [first, ...rest] = scalar(random, indent);
      out.push(`${head} ${first}`, ...rest);
    }
  }
}

/** Random block collections, about `bytes` long. */
function randomYaml(random: Random, bytes: number): string[] {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const from = lines.length;
    lines.push(`${word(random)}:`);
    block(random, 2, 5, lines);
    for (let i = from; i < lines.length; i++) size += lines[i].length + 1;
  }
  return lines;
}

/** Block and flow nesting that goes up to (and sometimes past) the tool's depth bound, repeated. */
function deepYaml(random: Random, bytes: number): string[] {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const depth = 1 + int(random, random() < 0.9 ? 60 : 300);
    const chunk =
      random() < 0.5
        ? Array.from({ length: depth }, (_, i) => `${' '.repeat(i * 2)}${random() < 0.5 ? '- ' : ''}k${i}:`).concat(`${' '.repeat(depth * 2)}x: y`)
        : [`k${int(random, 1000)}: ${'[{a: '.repeat(depth)}x${'}]'.repeat(random() < 0.8 ? depth : 0)}`];
    lines.push(`top${lines.length}:`, ...chunk.map((l) => `  ${l}`));
    size += chunk.reduce((n, l) => n + l.length + 3, 0);
  }
  return lines;
}

/** Mappings whose values are very long plain, quoted and block scalars. */
function longScalarYaml(random: Random, bytes: number): string[] {
  const lines: string[] = [];
  let size = 0;
  while (size < bytes) {
    const length = 1 + int(random, 200_000);
    const kind = int(random, 4);
    const chunk =
      kind === 0
        ? [`k${lines.length}: ${'x'.repeat(length)}`]
        : kind === 1
          ? [`k${lines.length}: "${'a\\"b '.repeat(length / 5)}"`]
          : kind === 2
            ? [`k${lines.length}: |`, ...Array.from({ length: 1 + int(random, 2000) }, () => `  ${'y'.repeat(int(random, 100))}`)]
            : [`k${lines.length}: '${Array.from({ length: 1 + int(random, 2000) }, () => word(random)).join('\n  ')}'`];
    lines.push(...chunk);
    size += chunk.reduce((n, l) => n + l.length + 1, 0);
  }
  return lines;
}

const BREAKS = ['x', '- ', ': ', '{', '[', '"', "'", '}', ']', '&', '*', '!', '|', '>', '? ', '\t', '%YAML 1.2', '---', '...', '{{ .', '#'];

/** One of the other shapes with random characters, lines and indentation broken. */
function brokenYaml(random: Random, bytes: number): string[] {
  const lines = pick(random, [randomYaml, deepYaml, longScalarYaml])(random, bytes);
  const breaks = 1 + int(random, 50);
  for (let i = 0; i < breaks; i++) {
    const at = int(random, lines.length);
    const line = lines[at];
    const column = int(random, Math.min(line.length, 1_000) + 1);
    lines[at] = random() < 0.5 ? line.slice(0, column) + pick(random, BREAKS) + line.slice(column) : line.slice(0, column);
  }
  return lines;
}

/** The lines of a generated document of the shape, about `bytes` long. */
export function bigYamlLines(shape: BigYamlShape, bytes: number, seed: number): string[] {
  const random = seededRandom(seed);
  switch (shape) {
    case 'random':
      return randomYaml(random, bytes);
    case 'deep':
      return deepYaml(random, bytes);
    case 'longScalars':
      return longScalarYaml(random, bytes);
    case 'broken':
      return brokenYaml(random, bytes);
  }
}

/** A generated document of the shape, about `bytes` long. */
export function bigYaml(shape: BigYamlShape, bytes: number, seed: number): string {
  return bigYamlLines(shape, bytes, seed).join('\n') + '\n';
}

/** The reported case: the first `lines` lines of a 2 MB random document, then a last line `x`. */
export function truncatedWithX(lines: number, seed = 1): string {
  return bigYamlLines('random', 2_000_000, seed).slice(0, lines).join('\n') + '\nx\n';
}
