import { isMap, isPair, isScalar, isSeq, type Node, type Pair, type YAMLMap } from 'yaml';
import type { Range } from '../diagnostics';
import type { ParsedYaml } from '../yaml/yamlDocument';

/** A text edit of the document the diagnostic is in. */
export interface FixEdit {
  readonly range: Range;
  readonly newText: string;
}

/** One way to fix a problem: a title a user reads, and the edits. `preferred` when it is the one obvious fix. */
export interface QuickFix {
  readonly title: string;
  readonly edits: readonly FixEdit[];
  readonly preferred: boolean;
}

/** A diagnostic as the editor hands it back: its place, code and data. */
export interface FixableDiagnostic {
  readonly range: Range;
  readonly code: string;
  readonly data?: unknown;
}

/**
 * The fixes of a problem that need the document to compute (the value to rewrite, the lines of a
 * key to remove, the comment to insert); fixes the check knew when it found the problem travel in
 * its `data` instead. Computed when the editor asks, from the parse the editor already holds.
 */
export function quickFixesFor(parsed: ParsedYaml, diagnostic: FixableDiagnostic): QuickFix[] {
  const data = (diagnostic.data ?? {}) as Record<string, unknown>;
  const at = parsed.index.offsetAt(diagnostic.range.start);
  if (diagnostic.code.startsWith('security.')) return [disableForLine(parsed, at, diagnostic.code)];
  if (!parsed.doc) return [];
  switch (diagnostic.code) {
    case 'schema.type':
      return typeFixes(parsed, at, Array.isArray(data.expected) ? data.expected.map(String) : []);
    case 'schema.oneOf':
      return oneOfFixes(parsed, at);
    case 'schema.removedKey':
      // A removed key with a new name is renamed (the check's own fix); one without is removed.
      return typeof data.renameTo === 'string' ? [] : removeKey(parsed, at, `Remove "${String(data.key ?? 'the key')}" (GitLab no longer reads it)`);
    case 'yaml.duplicateKey':
      return removeEarlierDuplicate(parsed, at);
    default:
      return [];
  }
}

/** `# agentcfg-disable-next-line <code>` above the line, indented like it. */
function disableForLine(parsed: ParsedYaml, at: number, code: string): QuickFix {
  const line = parsed.index.positionAt(at).line;
  const lineStart = parsed.index.offsetAt({ line, character: 0 });
  const indent = /^[ \t]*/.exec(parsed.text.slice(lineStart, lineStart + 200))![0];
  const position = { line, character: 0 };
  return { title: `Silence ${code} for this line`, edits: [{ range: { start: position, end: position }, newText: `${indent}# agentcfg-disable-next-line ${code}\n` }], preferred: false };
}

/** A value of the wrong type: rewritten as the type the key takes, where the rewriting is clear. */
function typeFixes(parsed: ParsedYaml, at: number, expected: readonly string[]): QuickFix[] {
  const found = pairAt(parsed.doc!.contents, at);
  const value = found?.value;
  if (!value?.range || !isScalar(value)) return [];
  const range = rangeOf(parsed, value.range[0], value.range[1]);
  const source = parsed.text.slice(value.range[0], value.range[1]);
  const replace = (title: string, newText: string, preferred: boolean): QuickFix => ({ title, edits: [{ range, newText }], preferred });
  if (expected.includes('boolean')) return [replace('Change to true', 'true', false), replace('Change to false', 'false', false)];
  if (expected.includes('array')) return [replace(`Make it a list: [${source}]`, `[${source}]`, true)];
  if (expected.includes('string') && typeof value.value !== 'string') return [replace(`Quote it: "${source}"`, JSON.stringify(source), true)];
  if ((expected.includes('integer') || expected.includes('number')) && typeof value.value === 'string' && /^-?\d+(\.\d+)?$/.test(value.value)) {
    return [replace(`Change to ${value.value}`, value.value, true)];
  }
  return [];
}

/** A mapping that must set exactly one key (`access_as`) but sets several: keep one of them. */
function oneOfFixes(parsed: ParsedYaml, at: number): QuickFix[] {
  const found = pairAt(parsed.doc!.contents, at);
  const map = found?.value;
  if (!isMap(map) || map.items.length < 2) return [];
  return map.items.flatMap((kept) => {
    if (!isScalar(kept.key)) return [];
    const edits = map.items.filter((p) => p !== kept).flatMap((p) => linesOfPair(parsed, p));
    return edits.length ? [{ title: `Keep only ${String(kept.key.value)}`, edits, preferred: false }] : [];
  });
}

function removeKey(parsed: ParsedYaml, at: number, title: string): QuickFix[] {
  const found = pairAt(parsed.doc!.contents, at);
  const edits = found ? linesOfPair(parsed, found) : [];
  return edits.length ? [{ title, edits, preferred: true }] : [];
}

/** GitLab keeps a repeated key's last value: the earlier pairs are what the fix removes. */
function removeEarlierDuplicate(parsed: ParsedYaml, at: number): QuickFix[] {
  const map = mapHolding(parsed.doc!.contents, at);
  if (!map) return [];
  const last = map.items.find((p) => isScalar(p.key) && p.key.range && p.key.range[0] <= at && at < p.key.range[1]);
  if (!last || !isScalar(last.key)) return [];
  const name = String(last.key.value);
  const earlier = map.items.filter((p) => p !== last && isScalar(p.key) && String(p.key.value) === name && p.key.range && p.key.range[0] < at);
  const edits = earlier.flatMap((p) => linesOfPair(parsed, p));
  return edits.length ? [{ title: `Remove the earlier "${name}" (GitLab ignores it)`, edits, preferred: true }] : [];
}

/** The edit that deletes a pair's whole lines: its key's line to the end of its value's last line. */
function linesOfPair(parsed: ParsedYaml, pair: Pair): FixEdit[] {
  const key = pair.key as Node | null;
  if (!key?.range) return [];
  const value = pair.value as Node | null;
  const startLine = parsed.index.positionAt(key.range[0]).line;
  const endOffset = value?.range ? value.range[1] : key.range[1];
  // The character before the value's end: a block value may end at the start of the next line.
  const endLine = parsed.index.positionAt(Math.max(endOffset - 1, key.range[0])).line;
  return [{ range: { start: { line: startLine, character: 0 }, end: { line: endLine + 1, character: 0 } }, newText: '' }];
}

/** The innermost pair whose key or value holds `at`. */
function pairAt(node: unknown, at: number): Pair<Node, Node | null> | null {
  let found: Pair<Node, Node | null> | null = null;
  const visit = (n: unknown) => {
    if (isMap(n)) {
      for (const item of n.items) {
        if (!isPair(item)) continue;
        const pair = item as Pair<Node, Node | null>;
        const start = pair.key?.range?.[0] ?? Infinity;
        const end = pair.value?.range?.[1] ?? pair.key?.range?.[1] ?? -1;
        if (start <= at && at < Math.max(end, start + 1)) {
          found = pair;
          visit(pair.value);
        }
      }
    } else if (isSeq(n)) {
      for (const item of n.items) visit(item);
    }
  };
  visit(node);
  return found;
}

/** The innermost mapping with a key at `at`. */
function mapHolding(node: unknown, at: number): YAMLMap<Node, Node | null> | null {
  let found: YAMLMap<Node, Node | null> | null = null;
  const visit = (n: unknown) => {
    if (isMap(n)) {
      for (const item of n.items) {
        const key = item.key as Node | null;
        if (key?.range && key.range[0] <= at && at < key.range[1]) found = n as YAMLMap<Node, Node | null>;
        visit(item.value);
      }
    } else if (isSeq(n)) {
      for (const item of n.items) visit(item);
    }
  };
  visit(node);
  return found;
}

function rangeOf(parsed: ParsedYaml, start: number, end: number): Range {
  return { start: parsed.index.positionAt(start), end: parsed.index.positionAt(end) };
}
