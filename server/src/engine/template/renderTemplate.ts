/**
 * Renders an environment template the way GitLab does (docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#managed-resources-flow):
 *
 * 1. The raw template must be valid YAML: Rails `YAML.safe_load`s it (to read `delete_resources`) before
 *    anything is rendered, so an unquoted value starting with `{{` — a YAML flow mapping — breaks the job.
 * 2. KAS renders the raw text as ONE Go template (not value by value), so actions may span YAML structure
 *    (`{{ range }}` around list items) and error positions are positions in the file.
 * 3. The rendered text is parsed as YAML and `objects`, `apply_resources` read from it; `delete_resources`
 *    is taken from the raw YAML, as Rails stores it.
 *
 * Every error is an {@link EngineDiagnostic} whose range is in the template text; problems found in the
 * rendered YAML are mapped back to the template text that produced them.
 */
import { isMap, isSeq, type Document } from 'yaml';
import { boundedData, composeYaml, TOO_DEEP_MESSAGE, tooDeepDiagnostic } from '../yaml/boundedYaml';
import type { EngineDiagnostic, Range } from '../diagnostics';
import { TextIndex } from '../text/textIndex';
import { renderGoTemplate, sourceSpanAt, type ActionListener, type OutputSegment, type RenderBudget, type TemplateError } from './render/index';

/** A rendered template, ready to apply. */
export interface RenderedEnvironmentTemplate {
  readonly ok: true;
  /** The rendered YAML text. */
  readonly text: string;
  /** The rendered `objects` (plain data); empty when the key is absent. */
  readonly objects: unknown[];
  /** For each of `objects`, the template text (UTF-16 offsets) that produced it: where the template hover finds an object. */
  readonly objectSources: readonly { readonly start: number; readonly end: number }[];
  /** Rendered `apply_resources`, if set. */
  readonly applyResources: string | undefined;
  /** `delete_resources` as GitLab stores it: read from the raw, unrendered template. */
  readonly deleteResources: string | undefined;
  /** Things GitLab accepts but that likely do not do what was meant. */
  readonly warnings: EngineDiagnostic[];
}

/** Outcome of {@link renderEnvironmentTemplate}. */
export type RenderTemplateResult = RenderedEnvironmentTemplate | { readonly ok: false; readonly errors: EngineDiagnostic[] };

/** Options of {@link renderEnvironmentTemplate}. */
export interface RenderTemplateOptions {
  /** Template name used in Go's messages; GitLab's only template is `default`. */
  readonly name?: string;
  /** What rendering may spend (limits.ts); shared when one check renders many times. */
  readonly budget?: RenderBudget;
  /** Told what each printing action produced (see `renderGoTemplate`). */
  readonly onAction?: ActionListener;
}

const YAML_OPTIONS = { version: '1.1', prettyErrors: false, logLevel: 'error', uniqueKeys: false } as const;
/** Refuse "billion laughs" aliases in rendered output. */
const MAX_ALIAS_COUNT = 1000;

/** The first document, or where the text nests past the bound (composing it would recurse that deep). */
function firstDocument(text: string): Document.Parsed | null | { tooDeepAt: number } {
  const composed = composeYaml(text, YAML_OPTIONS);
  return composed.ok ? (composed.docs[0] ?? null) : { tooDeepAt: composed.tooDeepAt };
}

function error(range: Range, code: string, message: string, data?: Record<string, unknown>): EngineDiagnostic {
  return data ? { range, severity: 'error', code, message, data } : { range, severity: 'error', code, message };
}

/**
 * Where a line's plain YAML value starts with `{{` (after an optional `key:` and `- ` markers), as
 * `[offset of "{{", end of value]` within the line; null when it does not.
 */
function unquotedActionOnLine(line: string): [number, number] | null {
  const m = /^(\s*(?:-\s+)*(?:[^\s#'"{][^#]*?:\s+)?)\{\{/.exec(line);
  if (!m) return null;
  const comment = line.indexOf(' #', m[1].length);
  const end = (comment >= 0 ? line.slice(0, comment) : line).trimEnd().length;
  return [m[1].length, end];
}

function quoteYaml(value: string): string {
  return value.includes('"') ? `'${value.replace(/'/g, "''")}'` : `"${value.replace(/\\/g, '\\\\')}"`;
}

/** Raw-YAML errors, explained when they come from an unquoted `{{` (one diagnostic per such line). */
function rawYamlErrors(text: string, doc: Document.Parsed): EngineDiagnostic[] {
  const index = new TextIndex(text);
  const out: EngineDiagnostic[] = [];
  const explainedLines = new Set<number>();
  for (const e of doc.errors) {
    const line = index.positionAt(e.pos[0]).line;
    // A flow-mapping error may surface on the line after the `{{` that opened it.
    const culprit = [line, line - 1].find((l) => {
      if (l < 0) return false;
      const start = index.offsetAt({ line: l, character: 0 });
      return unquotedActionOnLine(text.slice(start, index.lineEnd(l))) !== null;
    });
    if (culprit === undefined) {
      out.push(error(index.range(e.pos[0], Math.max(e.pos[1], e.pos[0] + 1)), 'template.yaml', `The template is not valid YAML: ${e.message.split('\n')[0]}`));
      continue;
    }
    if (explainedLines.has(culprit)) continue;
    explainedLines.add(culprit);
    const lineStart = index.offsetAt({ line: culprit, character: 0 });
    const lineText = text.slice(lineStart, index.lineEnd(culprit));
    const [from, to] = unquotedActionOnLine(lineText) as [number, number];
    const value = lineText.slice(from, to);
    const range = index.range(lineStart + from, lineStart + to);
    const isWholeLine = lineText.slice(0, from).trim() === '';
    const message = isWholeLine
      ? 'This line starts with `{{`, which YAML reads as a flow mapping. GitLab parses the template as YAML before rendering it, so the job would fail. Put a control action such as `{{ if … }}` or `{{ end }}` in a YAML comment (`# {{ if … }}`), which the template still evaluates.'
      : `This value starts with \`{{\`, which YAML reads as a flow mapping. GitLab parses the template as YAML before rendering it, so the job would fail. Quote the whole value: ${quoteYaml(value)}.`;
    out.push(error(range, 'template.unquotedAction', message, isWholeLine ? undefined : { replacement: quoteYaml(value) }));
  }
  return out;
}

function templateErrorDiagnostic(e: TemplateError): EngineDiagnostic {
  const data = e.kind === 'execution' ? { cause: e.cause, context: e.context } : { cause: e.cause };
  const code = e.kind === 'syntax' ? 'template.syntax' : e.kind === 'limit' ? 'template.limit' : 'template.execution';
  return error(e.range, code, e.kind === 'limit' ? `Go template ${e.cause}.` : e.message, data);
}

/** Maps a span of the rendered text back to the template text that produced it. */
function templateRange(index: TextIndex, segments: readonly OutputSegment[], start: number, end = start + 1): Range {
  const span = sourceSpan(segments, start, end);
  return index.range(span.start, Math.max(span.end, span.start + 1));
}

/** The template offsets that produced `[start, end)` of the rendered text. */
function sourceSpan(segments: readonly OutputSegment[], start: number, end: number): { start: number; end: number } {
  const first = sourceSpanAt(segments, start) ?? { start: 0, end: 0 };
  const last = sourceSpanAt(segments, Math.max(start, end - 1)) ?? first;
  return { start: first.start, end: Math.max(first.end, last.end) };
}

/** The rendered-text span of a YAML node, when it has one. */
function nodeSpan(node: unknown): [number, number] {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range ? [range[0], range[1]] : [0, 0];
}

function renderedYamlError(range: Range, message: string, rendered: string, offset: number): EngineDiagnostic {
  return error(range, 'template.renderedYaml', `After rendering: ${message} (rendered line: ${renderedLine(rendered, offset)})`);
}

function renderedLine(rendered: string, offset: number): string {
  const start = rendered.lastIndexOf('\n', offset - 1) + 1;
  const end = rendered.indexOf('\n', offset);
  return rendered.slice(start, end < 0 ? rendered.length : end).trim();
}

/**
 * Renders an environment template with `data` (see `buildTemplateData`) following GitLab's flow: raw YAML
 * check, Go template rendering of the whole text, then the rendered YAML's `objects`, `apply_resources` and
 * the raw `delete_resources`.
 */
export function renderEnvironmentTemplate(templateText: string, data: unknown, options: RenderTemplateOptions = {}): RenderTemplateResult {
  const raw = firstDocument(templateText);
  if (raw && 'tooDeepAt' in raw) return { ok: false, errors: [tooDeepDiagnostic(new TextIndex(templateText), raw.tooDeepAt)] };
  if (raw && raw.errors.length > 0) return { ok: false, errors: rawYamlErrors(templateText, raw) };

  const rendered = renderGoTemplate(templateText, data, { name: options.name, ...(options.budget ? { budget: options.budget } : {}), ...(options.onAction ? { onAction: options.onAction } : {}) });
  if (!rendered.ok) return { ok: false, errors: [templateErrorDiagnostic(rendered.error)] };

  const index = new TextIndex(templateText);
  const doc = firstDocument(rendered.text);
  const at = (offset: number, end?: number): Range => templateRange(index, rendered.segments, offset, end);
  if (doc && 'tooDeepAt' in doc) return { ok: false, errors: [renderedYamlError(at(doc.tooDeepAt), TOO_DEEP_MESSAGE, rendered.text, doc.tooDeepAt)] };
  if (doc && doc.errors.length > 0) {
    return {
      ok: false,
      errors: doc.errors.map((e) =>
        error(at(e.pos[0]), 'template.renderedYaml', `After rendering, the template is not valid YAML: ${e.message.split('\n')[0]} (rendered line: ${renderedLine(rendered.text, e.pos[0])})`),
      ),
    };
  }

  const errors: EngineDiagnostic[] = [];
  const objectsNode = doc?.get('objects', true);
  if (objectsNode != null && !isSeq(objectsNode)) {
    errors.push(error(at(...nodeSpan(objectsNode)), 'template.objects', '`objects` must be a list of Kubernetes objects.'));
  } else if (isSeq(objectsNode)) {
    for (const item of objectsNode.items) {
      if (!isMap(item)) {
        errors.push(error(at(...nodeSpan(item)), 'template.objects', 'Each entry of `objects` must be a Kubernetes object (a mapping).'));
      }
    }
  }
  if (errors.length > 0) return { ok: false, errors };

  const converted = doc ? boundedData(doc, rendered.text, MAX_ALIAS_COUNT) : ({ ok: true, value: null } as const);
  if (!converted.ok) return { ok: false, errors: [renderedYamlError(at(converted.at), converted.message, rendered.text, converted.at)] };
  const js = (converted.value ?? {}) as Record<string, unknown>;
  const objects = Array.isArray(js.objects) ? js.objects : [];
  const objectSources = isSeq(objectsNode) ? objectsNode.items.map((item) => sourceSpan(rendered.segments, ...nodeSpan(item))) : [];
  const applyResources = typeof js.apply_resources === 'string' ? js.apply_resources : undefined;
  const rawDelete = raw?.get('delete_resources');
  const deleteResources = typeof rawDelete === 'string' ? rawDelete : undefined;

  const warnings: EngineDiagnostic[] = [];
  const renderedDelete = typeof js.delete_resources === 'string' ? js.delete_resources : undefined;
  if (renderedDelete !== deleteResources && raw) {
    const range = index.range(...nodeSpan(raw.get('delete_resources', true)));
    warnings.push({
      range,
      severity: 'warning',
      code: 'template.deleteResourcesTemplated',
      message: `GitLab reads \`delete_resources\` from the template before rendering it, so it stores ${JSON.stringify(deleteResources ?? null)}, not the rendered ${JSON.stringify(renderedDelete ?? null)}.`,
    });
  }
  return { ok: true, text: rendered.text, objects, objectSources, applyResources, deleteResources, warnings };
}
