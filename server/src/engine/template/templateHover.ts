/**
 * What an environment template gives, at the place hovered, in each scenario the checks render it
 * for: on a `{{ … }}` action the text it prints, on an object of `objects` the object GitLab would
 * create (kind, name, namespace, a RoleBinding's subjects). Rendered with GitLab's flow
 * (renderTemplate.ts, docs/gitlab-behaviour.md#managed-resources-flow), so a template that fails says
 * so here as GitLab would. Pure: markdown text and template offsets, no editor types.
 */
import { isMap, isSeq, type Node } from 'yaml';
import { composeYaml } from '../yaml/boundedYaml';
import type { EngineDiagnostic } from '../diagnostics';
import { TextIndex } from '../text/textIndex';
import { templateReferenceDiagnostics } from './diagnostics/templateReferences';
import type { ActionNode, ListNode, TemplateNode } from './render/ast';
import { DEFAULT_TEMPLATE_NAME, RenderBudget } from './render/index';
import { parseTemplateOnce } from './render/lastParsed';
import { renderEnvironmentTemplate, type RenderTemplateResult } from './renderTemplate';

/** One rendering to show: a row of the hover's table. */
export interface HoverRendering {
  /** The scenario (and project, when several are rendered), as the row names it. */
  readonly label: string;
  /** The template data (`buildTemplateData`). */
  readonly data: unknown;
}

export interface TemplateHoverInput {
  readonly text: string;
  /** Where the pointer is (UTF-16 offset). */
  readonly offset: number;
  readonly renderings: readonly HoverRendering[];
  /** The last lines of the hover: which ids and project were assumed, which scenarios were not rendered. */
  readonly footnotes: readonly string[];
}

export interface TemplateHover {
  readonly markdown: string;
  /** The action or object hovered (UTF-16 offsets). */
  readonly start: number;
  readonly end: number;
}

/** Rows shown; the rest are counted. A hover is read at a glance. */
const MAX_ROWS = 12;
/** Longer values are cut: the hover is not the place to read a whole rendered document. */
const MAX_VALUE_CHARS = 120;

/** The hover at `input.offset`: an action's values, else the enclosing object's rendering; null elsewhere. */
export function templateHover(input: TemplateHoverInput): TemplateHover | null {
  let trees: ReadonlyMap<string, ListNode>;
  try {
    // Every function name is accepted: an unknown one is said at the action (below), as GitLab fails on it.
    // The parse is usually the one the template's checks made a moment ago (lastParsed.ts).
    trees = parseTemplateOnce(input.text, DEFAULT_TEMPLATE_NAME, null).trees;
  } catch {
    return null; // the syntax error is a diagnostic already; nothing can be rendered
  }
  const action = [...trees.values()].map((tree) => actionAt(tree, input.offset)).find((a) => a !== null) ?? null;
  if (action) return actionHover(input, action);
  return objectHover(input);
}

function actionHover(input: TemplateHoverInput, action: ActionNode): TemplateHover {
  const index = new TextIndex(input.text);
  const inAction = (d: EngineDiagnostic) => index.offsetAt(d.range.start) >= action.start && index.offsetAt(d.range.start) < action.end;
  const budget = new RenderBudget();
  const rows = input.renderings.map(({ label, data }) => {
    const printed: string[] = [];
    const result = renderEnvironmentTemplate(input.text, data, {
      budget,
      onAction: (start, end, text) => {
        if (start === action.start && end === action.end) printed.push(text);
      },
    });
    const failure = result.ok ? undefined : result.errors.find(inAction);
    return [label, failure ? `✗ ${oneLine(failure.message)}` : printed.length ? printedValues(printed) : notReached(result)];
  });
  const warnings = templateReferenceDiagnostics(input.text, DEFAULT_TEMPLATE_NAME)
    .filter(inAction)
    .map((d) => `⚠ ${oneLine(d.message)}`);
  const source = input.text.slice(action.start, action.end);
  const markdown = [`**${code(source)}** per scenario`, ...warnings, table(['scenario', 'prints'], rows), ...input.footnotes].join('\n\n');
  return { markdown, start: action.start, end: action.end };
}

/** Why an action printed nothing in a rendering: rendering stopped first, or a branch skipped it. */
function notReached(result: RenderTemplateResult): string {
  const first = result.ok ? undefined : result.errors[0];
  if (!first) return '*not printed* (a branch of the template skips it here)';
  return `*not printed*: rendering fails first, line ${first.range.start.line + 1}: ${oneLine(first.message)}`;
}

function objectHover(input: TemplateHoverInput): TemplateHover | null {
  const item = rawObjectAt(input.text, input.offset);
  if (!item) return null;
  const budget = new RenderBudget();
  const described = input.renderings.map(({ label, data }) => {
    const result = renderEnvironmentTemplate(input.text, data, { budget });
    if (!result.ok) return { label, failure: `✗ ${oneLine(result.errors[0]?.message ?? 'rendering fails')}`, objects: [] };
    const objects = result.objects.filter((_, i) => within(result.objectSources[i], item));
    return { label, failure: null, objects: objects.map(describeObject) };
  });
  const all = described.flatMap((d) => d.objects);
  const withNamespace = all.some((o) => o.namespace !== null) || item.kind !== 'Namespace';
  const withSubjects = all.some((o) => o.subjects !== null);
  const headers = ['scenario', 'name', ...(withNamespace ? ['namespace'] : []), ...(withSubjects ? ['subjects → role'] : [])];
  const rows = described.flatMap(({ label, failure, objects }) => {
    if (failure) return [[label, failure]];
    if (objects.length === 0) return [[label, '*not rendered* (a branch of the template skips it here)']];
    return objects.map((o) => [label, code(o.name), ...(withNamespace ? [o.namespace === null ? '—' : code(o.namespace)] : []), ...(withSubjects ? [o.subjects ?? '—'] : [])]);
  });
  const title = `**${item.kind ?? 'Object'}** as GitLab would create it, per scenario`;
  return { markdown: [title, table(headers, rows), ...input.footnotes].join('\n\n'), start: item.start, end: item.end };
}

interface RawObject {
  readonly start: number;
  readonly end: number;
  /** `kind` when written literally. */
  readonly kind: string | null;
}

/**
 * The item of `objects` around `offset` in the raw template (GitLab reads it as YAML before
 * rendering, so a template that is not YAML has no objects to show).
 */
function rawObjectAt(text: string, offset: number): RawObject | null {
  const composed = composeYaml(text, { version: '1.1', prettyErrors: false, uniqueKeys: false });
  const doc = composed.ok ? composed.docs[0] : undefined;
  if (!doc || doc.errors.length) return null;
  const objects = doc.get('objects', true);
  if (!isSeq(objects)) return null;
  for (const item of objects.items as Node[]) {
    const range = item.range;
    if (!isMap(item) || !range || offset < range[0] || offset >= range[1]) continue;
    const kind = item.get('kind');
    return { start: range[0], end: range[1], kind: typeof kind === 'string' && !kind.includes('{{') ? kind : null };
  }
  return null;
}

/** A rendered object comes from the raw item when the template text that produced it lies inside the item. */
function within(source: { start: number; end: number } | undefined, item: RawObject): boolean {
  return source !== undefined && source.start >= item.start && source.start < item.end;
}

interface ObjectSummary {
  readonly name: string;
  readonly namespace: string | null;
  /** `Group x, User y → ClusterRole admin` for bindings; null for other kinds. */
  readonly subjects: string | null;
}

function describeObject(object: unknown): ObjectSummary {
  const o = record(object);
  const metadata = record(o.metadata);
  const name = scalar(metadata.name) ?? '';
  const namespace = scalar(metadata.namespace);
  if (!Array.isArray(o.subjects) && o.roleRef === undefined) return { name, namespace, subjects: null };
  const subjects = (Array.isArray(o.subjects) ? o.subjects : []).map((s) => `${scalar(record(s).kind) ?? '?'} ${code(scalar(record(s).name) ?? '')}`);
  const role = record(o.roleRef);
  const roleText = o.roleRef === undefined ? '' : ` → ${scalar(role.kind) ?? '?'} ${code(scalar(role.name) ?? '')}`;
  return { name, namespace, subjects: (subjects.join('<br>') || '*none*') + roleText };
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function scalar(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;
}

/** The innermost printing action (`{{ … }}` without a declaration) that spans `offset`. */
function actionAt(list: ListNode, offset: number): ActionNode | null {
  for (const node of list.nodes) {
    if (offset < node.start || offset >= node.end) continue;
    return innerAction(node, offset);
  }
  return null;
}

function innerAction(node: TemplateNode, offset: number): ActionNode | null {
  switch (node.type) {
    case 'action':
      return node.pipe.decl.length === 0 ? node : null;
    case 'if':
    case 'with':
    case 'range':
      return actionAt(node.list, offset) ?? (node.elseList ? actionAt(node.elseList, offset) : null);
    default:
      return null;
  }
}

/** What one rendering printed at the action: once, or each time a `range` ran it. */
function printedValues(printed: readonly string[]): string {
  const distinct = [...new Set(printed)];
  const shown = distinct.slice(0, 3).map(code).join(', ');
  const more = distinct.length > 3 ? `, … (${distinct.length} values)` : '';
  return printed.length > 1 ? `${shown}${more} (printed ${printed.length} times)` : shown;
}

/** A value as inline code in a table cell; the empty string said in words (an empty code span shows nothing). */
function code(value: string): string {
  if (value === '') return '*empty*';
  const cut = value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS)}…` : value;
  const cell = cut.replace(/\r?\n/g, '↵').replace(/\|/g, '\\|');
  return cell.includes('`') ? `\`\` ${cell} \`\`` : `\`${cell}\``;
}

/** A message in a table cell or paragraph: one line, and `<no value>` shown, not taken for an HTML tag. */
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').replace(/</g, '&lt;');
}

function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  if (rows.length === 0) return '*No active scenario renders the template.*';
  const shown = rows.slice(0, MAX_ROWS).map((r) => `| ${r.join(' | ')} |`);
  const hidden = rows.length - shown.length;
  const lines = [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...shown];
  return lines.join('\n') + (hidden > 0 ? `\n\n${hidden} more rendering${hidden > 1 ? 's' : ''} not shown.` : '');
}
