/** Reading keyword values out of located trees, and turning locations into LSP ranges. */
import { TextIndex } from '../text/textIndex';
import type { JobWhen, PipelineProblem, SourceLocation } from './model';
import type { Loc, TreeProblem, YNode } from './tree';

export const JOB_WHEN: readonly JobWhen[] = ['on_success', 'on_failure', 'always', 'manual', 'delayed', 'never'];

/** Converts offsets to 0-based LSP ranges, one line index per file, built on first use. */
export class Locator {
  private readonly indexes = new Map<string, TextIndex>();

  constructor(private readonly texts: ReadonlyMap<string, string>) {}

  location(loc: Loc): SourceLocation {
    const index = this.index(loc.file);
    // Block collections end after their last line break: the range stops at the last character.
    const text = index.text;
    let end = loc.end;
    while (end > loc.start && /\s/.test(text[end - 1] ?? '')) end--;
    return { file: loc.file, range: index.range(loc.start, end) };
  }

  /** The 0-based line of an offset of `file`. */
  line(file: string, offset: number): number {
    return this.index(file).positionAt(offset).line;
  }

  private index(file: string): TextIndex {
    let index = this.indexes.get(file);
    if (!index) this.indexes.set(file, (index = new TextIndex(this.texts.get(file) ?? '')));
    return index;
  }

  problem(p: TreeProblem): PipelineProblem {
    return { location: this.location(p.loc), severity: p.severity, code: p.code, message: p.message };
  }

  text(file: string): string {
    return this.texts.get(file) ?? '';
  }
}

/** A scalar's text (Ruby `to_s`); undefined for a list, mapping or null. */
export function scalarText(node: YNode | undefined): string | undefined {
  return node?.kind === 'scalar' && node.value !== null ? node.text : undefined;
}

/** A string-valued keyword: undefined when absent or not a string. */
export function stringValue(node: YNode | undefined): string | undefined {
  return node?.kind === 'scalar' && typeof node.value === 'string' ? node.value : undefined;
}

/** A `when:` value, when it is one GitLab accepts. */
export function whenValue(node: YNode | undefined): JobWhen | undefined {
  const text = stringValue(node);
  return text !== undefined && (JOB_WHEN as readonly string[]).includes(text) ? (text as JobWhen) : undefined;
}

/**
 * `variables:` (global, job or `rules:variables`): each value a string, number or boolean (as Ruby
 * prints it) or `{value, description, expand, options}` (https://docs.gitlab.com/ci/yaml/#variables).
 */
export function readVariables(node: YNode | undefined, problems: TreeProblem[], where: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!node || (node.kind === 'scalar' && node.value === null)) return out;
  if (node.kind !== 'map') {
    problems.push({ loc: node.loc, severity: 'error', code: 'pipeline.variablesShape', message: `${where} variables must be a mapping of names to values.` });
    return out;
  }
  for (const [name, entry] of node.entries) {
    const value = entry.value;
    if (value.kind === 'scalar') out[name] = value.text;
    else if (value.kind === 'map') out[name] = scalarText(value.entries.get('value')?.value) ?? '';
    else problems.push({ loc: value.loc, severity: 'error', code: 'pipeline.variableShape', message: `${where} variable ${name} must be a string, a number or {value: …}.` });
  }
  return out;
}

/** Whether a key is present with a non-null value. */
export function present(node: YNode | undefined): boolean {
  return node !== undefined && !(node.kind === 'scalar' && node.value === null);
}
