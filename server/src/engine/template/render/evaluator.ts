/**
 * A port of Go's `text/template/exec.go` (go1.26) over {@link GoValue}s. It keeps Go's bookkeeping of "the
 * node being evaluated" so that each error names the same node and position Go would
 * (`template: default:3:15: executing "default" at <.environment.nme>: …`).
 *
 * Data is treated as Go's `map[string]interface{}` executed with the default `missingkey` option, which is
 * what KAS passes: a missing key yields the invalid value, printed `<no value>`, and a field of a missing
 * value is missing too (no error). Values taken out of a map or list are typed `interface {}` in Go, which
 * shows in some error texts ("can't evaluate field x in type interface {}"); {@link Val.iface} tracks that.
 */
import { nodeString, type AnyNode, type ArgNode, type BranchNode, type ChainNode, type CommandNode, type FieldNode, type IdentifierNode, type ListNode, type NumberNode, type PipeNode, type TemplateNode, type VariableNode } from './ast';
import { FunctionError, type ParamType, type TemplateFunction } from './callable';
import { TemplateFailure, goByteColumn, goLine } from './errors';
import { formatV, printActionValue } from './format';
import { LIMIT_MESSAGES, MAX_RENDER_DEPTH, RenderBudget, RenderLimitExceeded } from './limits';
import { OutputBuilder } from './output';
import { GoFloat, goTypeName, isGoList, isGoMap, isTrue, sortedKeys, type GoValue } from './values';

/** A value plus whether Go's static type is `interface {}` (it came out of a map or list). */
interface Val {
  readonly v: GoValue;
  readonly iface: boolean;
}

/** Go's `missingVal`: "no final argument from a previous pipeline stage". */
const MISSING = Symbol('missing');
type Final = Val | typeof MISSING;

const INVALID: Val = { v: undefined, iface: false };

class BreakSignal {}
class ContinueSignal {}

function val(v: GoValue, iface = false): Val {
  return { v, iface };
}

/** Go's `evalPipeline` step "dig down one level" out of an interface: nil becomes the invalid value. */
function unwrapInterface(x: Val): Val {
  if (!x.iface) return x;
  return x.v === null ? INVALID : val(x.v);
}

function typeOf(x: Val): string {
  return x.iface ? 'interface {}' : goTypeName(x.v);
}

/** Inputs of {@link execute}. */
export interface ExecuteOptions {
  readonly text: string;
  /** The template name used in messages (Go's `template.New(name)`). */
  readonly name: string;
  readonly trees: ReadonlyMap<string, ListNode>;
  readonly functions: ReadonlyMap<string, TemplateFunction>;
  /** What this rendering may spend (shared by the renderings of one check); a fresh budget by default. */
  readonly budget?: RenderBudget;
}

interface Variable {
  readonly name: string;
  value: Val;
}

class State {
  private node: AnyNode | null = null;
  private vars: Variable[];
  /** Template calls and blocks entered, nested: each is a level of recursion here (limits.ts). */
  private depth = 0;
  private readonly budget: RenderBudget;

  constructor(
    private readonly opts: ExecuteOptions,
    private templateName: string,
    private readonly out: OutputBuilder,
    dot: Val,
  ) {
    this.vars = [{ name: '$', value: dot }];
    this.budget = opts.budget ?? new RenderBudget();
  }

  // Errors.

  private at(node: AnyNode): void {
    this.node = node;
  }

  private errorf(cause: string): never {
    const text = this.opts.text;
    const node = this.node;
    if (!node) {
      throw new TemplateFailure('execution', `template: ${this.templateName}: ${cause}`, cause, 0, 0);
    }
    const location = `${this.opts.name}:${goLine(text, node.pos)}:${goByteColumn(text, node.pos)}`;
    const context = nodeString(node);
    const message = `template: ${location}: executing ${JSON.stringify(this.templateName)} at <${context}>: ${cause}`;
    throw new TemplateFailure('execution', message, cause, node.start, node.end, context);
  }

  /** Stops at a bound of this tool (limits.ts), at the node being evaluated: not a Go failure. */
  private limitf(cause: string): never {
    const node = this.node;
    throw new TemplateFailure('limit', `template: ${this.opts.name}: ${cause}`, cause, node?.start ?? 0, node?.end ?? 0, node ? nodeString(node) : undefined);
  }

  /** Charges `text` to the budget (output written, strings computed) before it is kept. */
  private produced<T>(text: T): T {
    if (typeof text === 'string' && !this.budget.produce(text.length)) this.limitf(LIMIT_MESSAGES.chars);
    return text;
  }

  /** Runs `body` one level deeper (a block's list, a called template). */
  private nested(body: () => void): void {
    if (this.depth >= MAX_RENDER_DEPTH) this.limitf(LIMIT_MESSAGES.depth);
    this.depth++;
    try {
      body();
    } finally {
      this.depth--;
    }
  }

  // Variables.

  private mark(): number {
    return this.vars.length;
  }

  private pop(mark: number): void {
    this.vars.length = mark;
  }

  private push(name: string, value: Val): void {
    this.vars.push({ name, value });
  }

  private setVar(name: string, value: Val): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      if (this.vars[i].name === name) {
        this.vars[i].value = value;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  private setTopVar(n: number, value: Val): void {
    this.vars[this.vars.length - n].value = value;
  }

  private varValue(name: string): Val {
    for (let i = this.vars.length - 1; i >= 0; i--) if (this.vars[i].name === name) return this.vars[i].value;
    this.errorf(`undefined variable: ${name}`);
  }

  // Walking.

  walk(dot: Val, node: TemplateNode | ListNode): void {
    this.at(node);
    if (!this.budget.step()) this.limitf(LIMIT_MESSAGES.steps);
    switch (node.type) {
      case 'action': {
        // Variables declared by an action persist until the enclosing {{end}}.
        const value = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) {
          this.at(node);
          this.out.writeComputed(this.produced(printActionValue(value.v)), node.start, node.end);
        }
        return;
      }
      case 'break':
        throw new BreakSignal();
      case 'continue':
        throw new ContinueSignal();
      case 'if':
      case 'with':
        return this.walkIfOrWith(dot, node);
      case 'list':
        for (const n of node.nodes) this.walk(dot, n);
        return;
      case 'range':
        return this.walkRange(dot, node);
      case 'templateCall':
        return this.walkTemplate(dot, node);
      case 'text':
        this.out.writeLiteral(this.produced(node.text), node.start);
        return;
    }
  }

  private walkIfOrWith(dot: Val, node: BranchNode): void {
    const mark = this.mark();
    try {
      const value = this.evalPipeline(dot, node.pipe);
      const elseList = node.elseList;
      if (isTrue(value.v)) this.nested(() => this.walk(node.type === 'with' ? value : dot, node.list));
      else if (elseList) this.nested(() => this.walk(dot, elseList));
    } finally {
      this.pop(mark);
    }
  }

  private walkRange(dot: Val, r: BranchNode): void {
    this.at(r);
    const outer = this.mark();
    try {
      const value = this.evalPipeline(dot, r.pipe).v;
      const mark = this.mark();
      const decl = r.pipe.decl;
      const oneIteration = (index: Val, elem: Val): boolean => {
        if (decl.length > 0) {
          if (r.pipe.isAssign) this.setVar(decl[0].name, decl.length > 1 ? index : elem);
          else this.setTopVar(1, elem);
        }
        if (decl.length > 1) {
          if (r.pipe.isAssign) this.setVar(decl[1].name, elem);
          else this.setTopVar(2, index);
        }
        try {
          this.nested(() => this.walk(elem, r.list));
        } catch (e) {
          if (e instanceof BreakSignal) return false;
          if (!(e instanceof ContinueSignal)) throw e;
        } finally {
          this.pop(mark);
        }
        return true;
      };
      let ran = false;
      if (typeof value === 'number') {
        if (decl.length > 1) this.errorf(`can't use ${formatV(value)} to iterate over more than one variable`);
        for (let i = 0; i < value; i++) {
          ran = true;
          if (!oneIteration(INVALID, val(i))) break;
        }
      } else if (isGoList(value)) {
        for (let i = 0; i < value.length; i++) {
          ran = true;
          if (!oneIteration(val(i), val(value[i], true))) break;
        }
      } else if (isGoMap(value)) {
        for (const key of sortedKeys(value)) {
          ran = true;
          if (!oneIteration(val(key), val(value.get(key), true))) break;
        }
      } else if (value !== undefined && value !== null) {
        this.errorf(`range can't iterate over ${formatV(value)}`);
      }
      const elseList = r.elseList;
      if (!ran && elseList) this.nested(() => this.walk(dot, elseList));
    } finally {
      this.pop(outer);
    }
  }

  private walkTemplate(dot: Val, node: Extract<TemplateNode, { type: 'templateCall' }>): void {
    this.at(node);
    const tree = this.opts.trees.get(node.name);
    if (!tree) this.errorf(`template ${JSON.stringify(node.name)} not defined`);
    const newDot = node.pipe ? this.evalPipeline(dot, node.pipe) : INVALID;
    // No dynamic scoping: the called template sees only `$`.
    const saved = { vars: this.vars, name: this.templateName };
    this.vars = [{ name: '$', value: newDot }];
    this.templateName = node.name;
    try {
      this.nested(() => this.walk(newDot, tree));
    } finally {
      this.vars = saved.vars;
      this.templateName = saved.name;
    }
  }

  // Evaluation.

  private evalPipeline(dot: Val, pipe: PipeNode): Val {
    this.at(pipe);
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) value = unwrapInterface(this.evalCommand(dot, cmd, value));
    const result = value === MISSING ? INVALID : value;
    for (const d of pipe.decl) {
      if (pipe.isAssign) this.setVar(d.name, result);
      else this.push(d.name, result);
    }
    return result;
  }

  private notAFunction(args: readonly ArgNode[], final: Final): void {
    if (args.length > 1 || final !== MISSING) this.errorf(`can't give argument to non-function ${nodeString(args[0])}`);
  }

  private evalCommand(dot: Val, cmd: CommandNode, final: Final): Val {
    const first = cmd.args[0];
    switch (first.type) {
      case 'field':
        return this.evalFieldNode(dot, first, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, first, cmd.args, final);
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case 'pipe':
        // The arguments are all inside the parentheses.
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case 'variable':
        return this.evalVariableNode(first, cmd.args, final);
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.type) {
      case 'bool':
        return val(first.value);
      case 'dot':
        return dot;
      case 'nil':
        this.errorf('nil is not a command');
      // falls through (errorf throws)
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return val(first.text);
    }
  }

  /** Go's `idealConstant`: a number whose type only its syntax tells — float if it looks like one. */
  private idealConstant(n: NumberNode): Val {
    this.at(n);
    const isHexInt = n.text.length > 2 && n.text[0] === '0' && /[xX]/.test(n.text[1]) && !/[pP]/.test(n.text);
    if (n.isFloat && !isHexInt && n.text[0] !== "'" && /[.eEpP]/.test(n.text)) return val(new GoFloat(n.float));
    if (n.isInt) return val(n.int);
    this.errorf(`${n.text} overflows int`);
  }

  private evalFieldNode(dot: Val, field: FieldNode, args: readonly ArgNode[] | null, final: Final): Val {
    this.at(field);
    return this.evalFieldChain(dot, field.ident, args, final);
  }

  private evalChainNode(dot: Val, chain: ChainNode, args: readonly ArgNode[] | null, final: Final): Val {
    this.at(chain);
    if (chain.node.type === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    const base = this.evalArg(dot, null, chain.node);
    return this.evalFieldChain(base, chain.field, args, final);
  }

  private evalVariableNode(variable: VariableNode, args: readonly ArgNode[] | null, final: Final): Val {
    this.at(variable);
    const value = this.varValue(variable.ident[0]);
    if (variable.ident.length === 1) {
      this.notAFunction(args ?? [variable], final);
      return value;
    }
    return this.evalFieldChain(value, variable.ident.slice(1), args, final);
  }

  private evalFieldChain(receiver: Val, ident: readonly string[], args: readonly ArgNode[] | null, final: Final): Val {
    let r = receiver;
    for (let i = 0; i < ident.length - 1; i++) r = this.evalField(ident[i], null, MISSING, r);
    return this.evalField(ident[ident.length - 1], args, final, r);
  }

  private evalField(fieldName: string, args: readonly ArgNode[] | null, final: Final, receiver: Val): Val {
    // Go's default missingkey: a field of a missing value is missing, not an error.
    if (receiver.v === undefined) return INVALID;
    if (receiver.v === null) this.errorf(`nil pointer evaluating ${typeOf(receiver)}.${fieldName}`);
    const hasArgs = (args !== null && args.length > 1) || final !== MISSING;
    if (isGoMap(receiver.v)) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      return receiver.v.has(fieldName) ? val(receiver.v.get(fieldName), true) : INVALID;
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${typeOf(receiver)}`);
  }

  private evalFunction(dot: Val, node: IdentifierNode, cmd: AnyNode, args: readonly ArgNode[] | null, final: Final): Val {
    this.at(node);
    const fn = this.opts.functions.get(node.ident);
    if (!fn) this.errorf(`${JSON.stringify(node.ident)} is not a defined function`);
    return this.evalCall(dot, fn, cmd, node.ident, args, final);
  }

  private evalCall(dot: Val, fn: TemplateFunction, node: AnyNode, name: string, allArgs: readonly ArgNode[] | null, final: Final): Val {
    const args = allArgs ? allArgs.slice(1) : [];
    const numIn = args.length + (final === MISSING ? 0 : 1);
    const numFixed = fn.variadic ? fn.params.length : args.length;
    if (fn.variadic) {
      if (numIn < numFixed) this.errorf(`wrong number of args for ${name}: want at least ${fn.params.length} got ${args.length}`);
    } else if (numIn !== fn.params.length) {
      this.errorf(`wrong number of args for ${name}: want ${fn.params.length} got ${numIn}`);
    }

    if (name === 'and' || name === 'or') {
      // Short-circuit: return the first operand that decides, else the last one.
      let v: Val = INVALID;
      for (const arg of args) {
        v = this.evalArg(dot, 'value', arg);
        if (isTrue(v.v) === (name === 'or')) return v;
      }
      if (final !== MISSING) v = final;
      return v;
    }

    const argv: GoValue[] = [];
    let i = 0;
    for (; i < numFixed && i < args.length; i++) argv.push(this.evalArg(dot, fn.params[i], args[i]).v);
    if (fn.variadic) for (; i < args.length; i++) argv.push(this.evalArg(dot, fn.variadic, args[i]).v);
    if (final !== MISSING) {
      const type = numIn - 1 < fn.params.length ? fn.params[numIn - 1] : (fn.variadic as ParamType);
      argv.push(this.validateType(final, type).v);
    }
    try {
      return val(this.produced(fn.call(argv)), fn.returnsInterface === true);
    } catch (e) {
      if (e instanceof RenderLimitExceeded) {
        this.at(node);
        this.limitf(LIMIT_MESSAGES.chars);
      }
      if (!(e instanceof FunctionError)) throw e;
      this.at(node);
      this.errorf(`error calling ${name}: ${e.message}`);
    }
  }

  /** Go's `validateType`: converts a computed value to a parameter type, or fails as Go does. */
  private validateType(value: Val, type: ParamType | null): Val {
    if (value.v === undefined) {
      if (type === null || type === 'value') return INVALID;
      if (type === 'any') return val(null);
      this.errorf(`invalid value; expected ${type}`);
    }
    if (type === null || type === 'value' || type === 'any') return value;
    const ok = type === 'string' ? typeof value.v === 'string' : typeof value.v === 'number';
    if (ok) return val(value.v);
    const got = value.v === null ? 'interface {}' : goTypeName(value.v);
    this.errorf(`wrong type for value; expected ${type}; got ${got}`);
  }

  private evalArg(dot: Val, type: ParamType | null, n: ArgNode): Val {
    this.at(n);
    switch (n.type) {
      case 'dot':
        return this.validateType(dot, type);
      case 'nil':
        if (type === 'any') return val(null);
        if (type === 'value') return INVALID;
        this.errorf(`cannot assign nil to ${type}`);
      // falls through (errorf throws)
      case 'field':
        return this.validateType(this.evalFieldNode(dot, n, [n], MISSING), type);
      case 'variable':
        return this.validateType(this.evalVariableNode(n, null, MISSING), type);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, n), type);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, n, n, null, MISSING), type);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, n, null, MISSING), type);
    }
    switch (type) {
      case 'string':
        if (n.type === 'string') return val(n.text);
        this.errorf(`expected string; found ${nodeString(n)}`);
      // falls through (errorf throws)
      case 'int':
        if (n.type === 'number' && n.isInt) return val(n.int);
        this.errorf(`expected integer; found ${nodeString(n)}`);
      // falls through (errorf throws)
      default:
        return this.evalEmptyInterface(n);
    }
  }

  private evalEmptyInterface(n: Extract<ArgNode, { type: 'bool' | 'number' | 'string' }>): Val {
    this.at(n);
    if (n.type === 'bool') return val(n.value);
    if (n.type === 'string') return val(n.text);
    return this.idealConstant(n);
  }
}

/**
 * Executes the template `opts.name` of `opts.trees` on `data` (already converted to template values).
 * Throws a {@link TemplateFailure} of kind `execution`.
 */
export function execute(opts: ExecuteOptions, data: GoValue, out: OutputBuilder): void {
  const root = opts.trees.get(opts.name);
  if (!root) throw new TemplateFailure('execution', `template: ${opts.name}: "${opts.name}" is an incomplete or empty template`, 'incomplete or empty template', 0, 0);
  new State(opts, opts.name, out, val(data)).walk(val(data), root);
}
