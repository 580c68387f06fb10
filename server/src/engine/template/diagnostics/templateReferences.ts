/**
 * What a template refers to, checked without rendering it: Go template syntax, functions that do not
 * exist and variables that are not in GitLab's template data (docs/gitlab-behaviour.md#template-variables-and-functions), each at the exact place
 * inside the `{{ }}`.
 */
import type { EngineDiagnostic } from '../../diagnostics';
import { closestMatch } from '../../text/didYouMean';
import { TextIndex } from '../../text/textIndex';
import type { ArgNode, ListNode, PipeNode, TemplateNode } from '../render/ast';
import { TemplateFailure } from '../render/errors';
import { TEMPLATE_FUNCTIONS } from '../render/functions';
import { parseTemplateOnce } from '../render/lastParsed';
import { GITLAB_FUNCTION_NAMES, TEMPLATE_FUNCTION_NAMES, TEMPLATE_VARIABLES } from '../templateVariables';

/** What `.` (or a variable) holds, as far as the template data tells. */
type Shape = { readonly kind: 'map'; readonly fields: ReadonlyMap<string, Shape> } | { readonly kind: 'leaf'; readonly type: string } | { readonly kind: 'unknown' };

const UNKNOWN: Shape = { kind: 'unknown' };

/** The template data of docs/gitlab-behaviour.md#template-variables-and-functions as a tree: `.project.slug` → map project → leaf string. */
export const TEMPLATE_DATA_SHAPE: Shape = (() => {
  type MutableMap = { kind: 'map'; fields: Map<string, Shape> };
  const root: MutableMap = { kind: 'map', fields: new Map() };
  for (const variable of TEMPLATE_VARIABLES) {
    const segments = variable.path.slice(1).split('.');
    let node = root;
    segments.forEach((segment, i) => {
      if (i === segments.length - 1) {
        node.fields.set(segment, { kind: 'leaf', type: variable.type });
        return;
      }
      let next = node.fields.get(segment) as MutableMap | undefined;
      if (!next) {
        next = { kind: 'map', fields: new Map() };
        node.fields.set(segment, next);
      }
      node = next;
    });
  }
  return root;
})();

/** Every problem with the template's actions; empty when it parses and refers only to what exists. */
export function templateReferenceDiagnostics(text: string, templateName: string): EngineDiagnostic[] {
  const index = new TextIndex(text);
  let trees: ReadonlyMap<string, ListNode>;
  try {
    // Every function name is accepted here so that all unknown ones are reported, not only Go's first.
    trees = parseTemplateOnce(text, templateName, null).trees;
  } catch (e) {
    const failure = e instanceof RangeError ? new TemplateFailure('limit', e.message, `this tool cannot check this template (${e.message})`, 0, Math.min(2, text.length)) : e;
    if (!(failure instanceof TemplateFailure)) throw e;
    const range = index.range(failure.start, Math.max(failure.end, failure.start + 1));
    // A bound of this tool (limits.ts) is not a syntax error: GitLab may accept the template.
    if (failure.kind === 'limit') return [{ range, severity: 'error', code: 'template.limit', message: `Go template ${failure.cause}.` }];
    return [{ range, severity: 'error', code: 'template.syntax', message: `Go template syntax error: ${failure.cause} (GitLab would fail the job: ${failure.message}).` }];
  }
  const checker = new ReferenceChecker(index);
  for (const [name, tree] of trees) {
    // A `define`d template's dot is whatever its caller passes: only the main template's is known.
    checker.list(tree, name === templateName ? TEMPLATE_DATA_SHAPE : UNKNOWN, new Map([['$', name === templateName ? TEMPLATE_DATA_SHAPE : UNKNOWN]]));
  }
  return checker.found;
}

type Scope = Map<string, Shape>;

class ReferenceChecker {
  readonly found: EngineDiagnostic[] = [];

  constructor(private readonly index: TextIndex) {}

  list(list: ListNode, dot: Shape, scope: Scope): void {
    for (const node of list.nodes) this.node(node, dot, scope);
  }

  private node(node: TemplateNode, dot: Shape, scope: Scope): void {
    switch (node.type) {
      case 'action':
        this.pipe(node.pipe, dot, scope, scope);
        return;
      case 'if':
      case 'with':
      case 'range': {
        // Variables declared in the control pipeline live until {{end}} (Go's scoping).
        const inner: Scope = new Map(scope);
        const value = this.pipe(node.pipe, dot, scope, inner);
        const innerDot = node.type === 'if' ? dot : node.type === 'with' ? value : UNKNOWN;
        if (node.type === 'range') for (const d of node.pipe.decl) inner.set(d.name, UNKNOWN);
        this.list(node.list, innerDot, inner);
        // Go: variables of an if/with pipeline are visible in its else branch too.
        if (node.elseList) this.list(node.elseList, dot, node.type === 'range' ? new Map(scope) : inner);
        return;
      }
      case 'templateCall':
        if (node.pipe) this.pipe(node.pipe, dot, scope, scope);
        return;
      default:
        return;
    }
  }

  /** Checks a pipeline and returns what it yields (when one field or variable is all it is). */
  private pipe(pipe: PipeNode, dot: Shape, scope: Scope, declareIn: Scope): Shape {
    let value: Shape = UNKNOWN;
    pipe.cmds.forEach((cmd, i) => {
      cmd.args.forEach((arg) => {
        const shape = this.arg(arg, dot, scope);
        if (pipe.cmds.length === 1 && i === 0 && cmd.args.length === 1) value = shape;
      });
    });
    for (const d of pipe.decl) declareIn.set(d.name, pipe.decl.length === 1 ? value : UNKNOWN);
    return value;
  }

  private arg(arg: ArgNode, dot: Shape, scope: Scope): Shape {
    switch (arg.type) {
      case 'field':
        return this.fields(dot, arg.ident, arg.start + 1, '.');
      case 'variable': {
        const [name, ...fields] = arg.ident;
        return this.fields(scope.get(name) ?? UNKNOWN, fields, arg.start + name.length + 1, `${name}.`);
      }
      case 'chain':
        this.arg(arg.node, dot, scope);
        return UNKNOWN;
      case 'pipe':
        return this.pipe(arg, dot, scope, new Map(scope));
      case 'identifier':
        if (!TEMPLATE_FUNCTIONS.has(arg.ident)) this.unknownFunction(arg.ident, arg.start, arg.end);
        return UNKNOWN;
      case 'dot':
        return dot;
      default:
        return UNKNOWN;
    }
  }

  /** Follows `.a.b` from `shape`; `offset` is where the first segment's name starts. */
  private fields(shape: Shape, ident: readonly string[], offset: number, prefix: string): Shape {
    let current = shape;
    let at = offset;
    // The range and the words are made only for a problem: most fields of most templates exist.
    for (let i = 0; i < ident.length; i++) {
      const segment = ident[i];
      if (current.kind === 'unknown') return UNKNOWN;
      if (current.kind === 'leaf') {
        this.found.push({
          range: this.index.range(at, at + segment.length),
          severity: 'error',
          code: 'template.fieldOfValue',
          message: `"${prefix}${ident.slice(0, i).join('.')}" is a${current.type === 'int' ? 'n int' : ' string'}, which has no field "${segment}": rendering would fail.`,
        });
        return UNKNOWN;
      }
      const next = current.fields.get(segment);
      if (!next) {
        const candidates = [...current.fields.keys()];
        const suggestion = closestMatch(segment, candidates);
        const parent = prefix + ident.slice(0, i).join('.');
        const written = prefix + ident.slice(0, i + 1).join('.');
        this.found.push({
          range: this.index.range(at, at + segment.length),
          severity: 'error',
          code: 'template.unknownVariable',
          message:
            `Unknown template variable "${written}"${suggestion ? `: did you mean "${parent}${i ? '.' : ''}${suggestion}"?` : '.'} ` +
            `GitLab renders a missing key as "<no value>". Available${i ? ` in "${parent}"` : ''}: ${candidates.join(', ')}.`,
          ...(suggestion ? { data: { replacement: suggestion } } : {}),
        });
        return UNKNOWN;
      }
      current = next;
      at += segment.length + 1;
    }
    return current;
  }

  private unknownFunction(name: string, start: number, end: number): void {
    const suggestion = closestMatch(name, TEMPLATE_FUNCTION_NAMES);
    this.found.push({
      range: this.index.range(start, end),
      severity: 'error',
      code: 'template.unknownFunction',
      message:
        `Unknown template function "${name}"${suggestion ? `: did you mean "${suggestion}"?` : '.'} GitLab would fail the job (Go: function "${name}" not defined). ` +
        `Available: GitLab's ${GITLAB_FUNCTION_NAMES.join(', ')} and Go's builtins (printf, eq, and, …).`,
      ...(suggestion ? { data: { replacement: suggestion } } : {}),
    });
  }
}
