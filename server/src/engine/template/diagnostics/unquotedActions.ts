/**
 * Values that start with `{{` unquoted (docs/gitlab-behaviour.md#environment-template-file): YAML reads `{{ … }}` as a flow mapping, and GitLab
 * parses the raw template as YAML before rendering it, so such a value either breaks the job or is not
 * the string it looks like. Found on the YAML tree (flow mappings whose text starts with `{{`), so
 * comments, quoted strings and block scalars are never mistaken for one.
 */
import { isCollection, isPair, visit, type Document } from 'yaml';
import type { EngineDiagnostic } from '../../diagnostics';
import type { TextIndex } from '../../text/textIndex';

/** Control actions cannot become strings: quoting `{{ if … }}` would change the template. */
const CONTROL_ACTION = /^\{\{-?\s*(if|else|end|range|with|define|block|template|break|continue)\b/;

/** A mapping key or a value (a key is quoted alone: quoting up to the line end would swallow its value). */
type Role = 'key' | 'value';

const why = (what: Role | 'line') => `This ${what} starts with \`{{\`, which YAML reads as a flow mapping, and GitLab parses the template as YAML before rendering it.`;

/** What to do, by where the text is. */
const ADVICE: Record<'inFlow' | 'control' | 'quote', (text: string, role: Role) => string> = {
  inFlow: () => 'Quote it.',
  control: () => 'Put control actions such as `{{ if … }}` or `{{ end }}` in a YAML comment (`# {{ if … }}`): the template still evaluates them.',
  quote: (text, role) => `Quote the whole ${role}: ${quoteYamlValue(text)}.`,
};

/** Every unquoted `{{` value: an error on the value, with the quoted text as the fix when there is one. */
export function unquotedActionDiagnostics(doc: Document, text: string, index: TextIndex): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const seenLines = new Set<number>();
  visit(doc, {
    Map(_, node, path) {
      if (!node.flow || !node.range || !text.startsWith('{{', node.range[0])) return undefined;
      const start = node.range[0];
      const line = index.positionAt(start).line;
      if (seenLines.has(line)) return visit.SKIP;
      seenLines.add(line);
      // Inside a flow collection (`[{{ .x }}]`) the value ends at the node, and quoting up to the
      // end of the line would swallow the closing bracket: no automatic fix there.
      const parent = path[path.length - 1];
      const container = isPair(parent) ? path[path.length - 2] : parent;
      const inFlow = isCollection(container) && Boolean(container.flow);
      const role: Role = isPair(parent) && parent.key === node ? 'key' : 'value';
      const end = inFlow ? node.range[1] : actionTextEnd(text, start, index.lineEnd(line), role);
      const written = text.slice(start, end);
      const kind = inFlow ? 'inFlow' : CONTROL_ACTION.test(written) ? 'control' : 'quote';
      out.push({
        range: index.range(start, end),
        severity: 'error',
        code: 'template.unquotedAction',
        // A control action stands in for a line of its own, whether YAML took it for a key or a value.
        message: `${why(kind === 'control' ? 'line' : role)} ${ADVICE[kind](written, role)}`,
        ...(kind === 'quote' ? { data: { replacement: quoteYamlValue(written) } } : {}),
      });
      return visit.SKIP;
    },
  });
  return out;
}

/**
 * Where the unquoted text ends, outside the actions: a value runs to the end of the line, before a
 * ` #` comment; a key ends at its `: ` (or a `:` at the line end).
 */
function actionTextEnd(text: string, start: number, lineEnd: number, role: Role): number {
  const trimmedEnd = (end: number) => start + text.slice(start, end).trimEnd().length;
  let depth = 0;
  for (let i = start; i < lineEnd; i++) {
    if (text.startsWith('{{', i)) {
      depth++;
      i++;
    } else if (text.startsWith('}}', i)) {
      depth = Math.max(0, depth - 1);
      i++;
    } else if (depth === 0 && text[i] === '#' && /\s/.test(text[i - 1] ?? '')) {
      return trimmedEnd(i);
    } else if (depth === 0 && role === 'key' && text[i] === ':' && (i + 1 === lineEnd || /\s/.test(text[i + 1]!))) {
      return trimmedEnd(i);
    }
  }
  return trimmedEnd(lineEnd);
}

/** A double-quoted YAML scalar, or single-quoted when the value has double quotes (template strings do). */
export function quoteYamlValue(value: string): string {
  if (value.includes('"')) return `'${value.replace(/'/g, "''")}'`;
  return `"${value.replace(/\\/g, '\\\\')}"`;
}
