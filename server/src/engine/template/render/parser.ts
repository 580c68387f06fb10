/**
 * A port of Go's `text/template/parse/parse.go` (go1.26): same grammar, same checks at parse time
 * (unknown functions, undefined variables, `{{break}}` outside `range`, non-executable pipeline stages),
 * same error texts (`template: default:3: function "x" not defined`).
 */
import type {
  ArgNode,
  BranchNode,
  CommandNode,
  ElseNode,
  EndNode,
  ListNode,
  PipeNode,
  TemplateCallNode,
  TemplateNode,
  VariableRef,
} from './ast';
import { nodeString } from './ast';
import { TemplateFailure } from './errors';
import { isKeyword, lex, type Item, type ItemType } from './lexer';
import { LIMIT_MESSAGES, MAX_TEMPLATE_NESTING } from './limits';
import { parseNumber, unquoteString } from './literals';


/** The parsed template and the ones it `{{define}}`s, by name. */
export interface ParsedTemplates {
  readonly name: string;
  readonly trees: ReadonlyMap<string, ListNode>;
}

/** Go's `item.String()`, used in "unexpected …" messages. */
function itemString(item: Item): string {
  if (item.type === 'eof') return 'EOF';
  if (item.type === 'error') return item.val;
  if (isKeyword(item.type)) return `<${item.val}>`;
  const chars = Array.from(item.val);
  if (chars.length > 10) return `${JSON.stringify(chars.slice(0, 10).join(''))}...`;
  return JSON.stringify(item.val);
}

type Terminator = EndNode | ElseNode;

class Parser {
  private i = 0;
  /** Index of the furthest item read: Go reports parse errors on that item's line. */
  private furthest = 0;
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  /**
   * Blocks and parentheses open around the current item: each level is a level of recursion here and
   * in every walk of the tree, so it is bounded (limits.ts) well below Go's 10,000 parentheses.
   */
  private nesting = 0;
  private actionLine = 0;
  private actionStart = 0;
  /** The `{{` of each open if/with/range/define, innermost last: "unexpected EOF" points at it. */
  private readonly openBlocks: Item[] = [];

  constructor(
    private readonly text: string,
    private readonly items: Item[],
    private readonly parseName: string,
    private readonly hasFunction: (name: string) => boolean,
    private readonly trees: Map<string, ListNode>,
  ) {}

  // Token stream.

  private next(): Item {
    const item = this.items[Math.min(this.i, this.items.length - 1)];
    this.furthest = Math.max(this.furthest, this.i);
    this.i++;
    return item;
  }

  private backup(): void {
    this.i--;
  }

  private peek(): Item {
    const item = this.next();
    this.backup();
    return item;
  }

  private nextNonSpace(): Item {
    let item: Item;
    do item = this.next();
    while (item.type === 'space');
    return item;
  }

  private peekNonSpace(): Item {
    const save = this.i;
    const item = this.nextNonSpace();
    this.i = save;
    return item;
  }

  // Errors.

  /** Go's `Tree.errorf`: `template: <name>:<line>: <msg>`; `span` is where the editor should point. */
  errorf(cause: string, span: { start: number; end: number }): never {
    const item = this.items[Math.min(this.furthest, this.items.length - 1)];
    const message = `template: ${this.parseName}:${item.line}: ${cause}`;
    throw new TemplateFailure('syntax', message, cause, span.start, Math.max(span.end, span.start + 1));
  }

  /**
   * One more level of nesting, at the item just read (a block's keyword, a `(`); stops at
   * {@link MAX_TEMPLATE_NESTING}: a bound of this tool, not a Go syntax error.
   */
  private enter(): void {
    if (this.nesting >= MAX_TEMPLATE_NESTING) {
      const at = this.items[Math.max(0, Math.min(this.i, this.items.length) - 1)];
      throw new TemplateFailure('limit', `template: ${this.parseName}: ${LIMIT_MESSAGES.nesting}`, LIMIT_MESSAGES.nesting, at.pos, Math.max(at.end, at.pos + 1));
    }
    this.nesting++;
  }

  private span(item: Item): { start: number; end: number } {
    return { start: item.pos, end: item.end };
  }

  private unexpected(item: Item, context: string): never {
    if (item.type === 'error') {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== item.line) {
        extra = ` in action started at ${this.parseName}:${this.actionLine}`;
        if (item.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(`${itemString(item)}${extra}`, this.span(item));
    }
    this.errorf(`unexpected ${itemString(item)} in ${context}`, this.span(item));
  }

  private expect(expected: ItemType, context: string): Item {
    const item = this.nextNonSpace();
    if (item.type !== expected) this.unexpected(item, context);
    return item;
  }

  // Grammar.

  /** Top level: text, actions and `{{define}}`s up to EOF. */
  parseRoot(): ListNode {
    const nodes: TemplateNode[] = [];
    const start = this.peek().pos;
    while (this.peek().type !== 'eof') {
      if (this.peek().type === 'leftDelim') {
        const save = this.i;
        const delim = this.next();
        if (this.nextNonSpace().type === 'define') {
          this.parseDefinition(delim);
          continue;
        }
        this.i = save;
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${nodeString(n)}`, n);
      nodes.push(n);
    }
    return { type: 'list', pos: start, start, end: this.text.length, nodes };
  }

  private parseDefinition(delim: Item): void {
    const context = 'define clause';
    const name = this.templateName(this.nextNonSpace(), context);
    this.expect('rightDelim', context);
    this.definedBody(delim, name, context);
  }

  /**
   * The body of `define` or `block` up to its `{{end}}`, parsed in its own variable scope (a
   * definition sees only `$`) and added as template `name`. Returns the `{{end}}` node.
   */
  private definedBody(delim: Item, name: string, context: string): { end: number } {
    const outerVars = this.vars;
    this.vars = ['$'];
    this.enter();
    this.openBlocks.push(delim);
    const [list, end] = this.itemList();
    this.openBlocks.pop();
    this.nesting--;
    this.vars = outerVars;
    if (end.type !== 'end') this.errorf(`unexpected ${nodeString(end)} in ${context}`, end);
    this.addTree(name, list, { start: delim.pos, end: end.end });
    return end;
  }

  /** Go's `Tree.add`: a non-empty redefinition is an error. */
  addTree(name: string, list: ListNode, span: { start: number; end: number }): void {
    const existing = this.trees.get(name);
    if (existing && !isEmptyTree(existing) && !isEmptyTree(list)) {
      this.errorf(`template: multiple definition of template ${JSON.stringify(name)}`, span);
    }
    if (!existing || isEmptyTree(existing)) this.trees.set(name, list);
  }

  private itemList(): [ListNode, Terminator] {
    const start = this.peekNonSpace().pos;
    const nodes: TemplateNode[] = [];
    while (this.peekNonSpace().type !== 'eof') {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') {
        return [{ type: 'list', pos: start, start, end: n.start, nodes }, n];
      }
      nodes.push(n);
    }
    const open = this.openBlocks[this.openBlocks.length - 1];
    const at = open ? open.pos : this.actionStart;
    this.errorf('unexpected EOF', { start: at, end: at + 2 });
  }

  private textOrAction(): TemplateNode | Terminator {
    const item = this.nextNonSpace();
    switch (item.type) {
      case 'text':
        return { type: 'text', pos: item.pos, start: item.pos, end: item.end, text: item.val };
      case 'leftDelim': {
        this.actionLine = item.line;
        this.actionStart = item.pos;
        try {
          return this.action(item);
        } finally {
          this.actionLine = 0;
        }
      }
      default:
        this.unexpected(item, 'input');
    }
  }

  private action(delim: Item): TemplateNode | Terminator {
    const item = this.nextNonSpace();
    switch (item.type) {
      case 'block':
        return this.blockControl(delim);
      case 'break':
      case 'continue':
        return this.loopControl(item, delim);
      case 'else':
        return this.elseControl(delim);
      case 'end':
        return this.endControl(delim);
      case 'if':
      case 'range':
      case 'with':
        return this.branchControl(item.type, delim);
      case 'template':
        return this.templateControl(delim);
    }
    this.backup();
    const token = this.peek();
    // Variables declared in an action persist until the enclosing {{end}}.
    const pipe = this.pipeline('command', 'rightDelim');
    return { type: 'action', pos: token.pos, start: delim.pos, end: this.items[this.i - 1].end, pipe };
  }

  private loopControl(keyword: Item, delim: Item): TemplateNode {
    const name = keyword.type as 'break' | 'continue';
    const close = this.nextNonSpace();
    if (close.type !== 'rightDelim') this.unexpected(close, `{{${name}}}`);
    if (this.rangeDepth === 0) this.errorf(`{{${name}}} outside {{range}}`, { start: delim.pos, end: close.end });
    return { type: name, pos: keyword.pos, start: delim.pos, end: close.end };
  }

  private pipeline(context: string, end: 'rightDelim' | 'rightParen'): PipeNode {
    const first = this.peekNonSpace();
    const decl: VariableRef[] = [];
    let isAssign = false;
    decls: for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== 'variable') break;
      const save = this.i;
      this.nextNonSpace();
      const next = this.peekNonSpace();
      if (next.type === 'assign' || next.type === 'declare') {
        isAssign = next.type === 'assign';
        this.nextNonSpace();
        decl.push({ name: v.val, pos: v.pos, end: v.end });
        this.vars.push(v.val);
      } else if (next.type === 'char' && next.val === ',') {
        this.nextNonSpace();
        decl.push({ name: v.val, pos: v.pos, end: v.end });
        this.vars.push(v.val);
        if (context === 'range' && decl.length < 2) {
          const after = this.peekNonSpace();
          if (after.type === 'variable' || after.type === 'rightDelim' || after.type === 'rightParen') continue decls;
          this.errorf('range can only initialize variables', this.span(after));
        }
        this.errorf(`too many declarations in ${context}`, this.span(next));
      } else {
        this.i = save;
      }
      break;
    }
    const cmds: CommandNode[] = [];
    for (;;) {
      const item = this.nextNonSpace();
      if (item.type === end) {
        const pipe: PipeNode = {
          type: 'pipe',
          pos: first.pos,
          start: decl.length ? decl[0].pos : (cmds[0]?.start ?? item.pos),
          end: cmds.length ? cmds[cmds.length - 1].end : item.pos,
          isAssign,
          decl,
          cmds,
        };
        this.checkPipeline(pipe, context, item);
        return pipe;
      }
      switch (item.type) {
        case 'bool':
        case 'charConstant':
        case 'complex':
        case 'dot':
        case 'field':
        case 'identifier':
        case 'number':
        case 'nil':
        case 'rawString':
        case 'string':
        case 'variable':
        case 'leftParen':
          this.backup();
          cmds.push(this.command());
          break;
        default:
          this.unexpected(item, context);
      }
    }
  }

  private checkPipeline(pipe: PipeNode, context: string, close: Item): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`, { start: this.actionStart, end: close.end });
    pipe.cmds.slice(1).forEach((c, i) => {
      const t = c.args[0].type;
      if (t === 'bool' || t === 'dot' || t === 'nil' || t === 'number' || t === 'string') {
        this.errorf(`non executable command in pipeline stage ${i + 2}`, c);
      }
    });
  }

  private branchControl(context: 'if' | 'range' | 'with', delim: Item): BranchNode {
    const varCount = this.vars.length;
    // An `{{else if}}` nests too: it is parsed as `{{else}}{{if}}…{{end}}{{end}}`.
    this.enter();
    this.openBlocks.push(delim);
    try {
      const pipe = this.pipeline(context, 'rightDelim');
      if (context === 'range') this.rangeDepth++;
      const [list, first] = this.itemList();
      let next = first;
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | null = null;
      if (next.type === 'else') {
        const peek = this.peek().type;
        // {{else if x}} / {{else with x}} nest a new branch that shares our {{end}}.
        if ((context === 'if' && peek === 'if') || (context === 'with' && peek === 'with')) {
          this.next();
          const inner = this.branchControl(context, delim);
          elseList = { type: 'list', pos: next.pos, start: next.start, end: inner.end, nodes: [inner] };
          next = { type: 'end', pos: inner.end, start: inner.end, end: inner.end };
        } else {
          [elseList, next] = this.itemList();
          if (next.type !== 'end') this.errorf(`expected end; found ${nodeString(next)}`, next);
        }
      }
      return { type: context, pos: pipe.pos, start: delim.pos, end: next.end, pipe, list, elseList };
    } finally {
      this.vars.length = varCount;
      this.openBlocks.pop();
      this.nesting--;
    }
  }

  private endControl(delim: Item): EndNode {
    const close = this.expect('rightDelim', 'end');
    return { type: 'end', pos: close.pos, start: delim.pos, end: close.end };
  }

  private elseControl(delim: Item): ElseNode {
    const peek = this.peekNonSpace();
    if (peek.type === 'if' || peek.type === 'with') {
      // Leave the keyword pending: {{else if}} is parsed as {{else}}{{if}}.
      this.i = this.indexOfNextNonSpace();
      return { type: 'else', pos: peek.pos, start: delim.pos, end: peek.end };
    }
    const close = this.expect('rightDelim', 'else');
    return { type: 'else', pos: close.pos, start: delim.pos, end: close.end };
  }

  private indexOfNextNonSpace(): number {
    let j = this.i;
    while (this.items[j]?.type === 'space') j++;
    return j;
  }

  private templateControl(delim: Item): TemplateCallNode {
    const context = 'template clause';
    const nameItem = this.nextNonSpace();
    const name = this.templateName(nameItem, context);
    let pipe: PipeNode | null = null;
    if (this.nextNonSpace().type !== 'rightDelim') {
      this.backup();
      pipe = this.pipeline(context, 'rightDelim');
    }
    return { type: 'templateCall', pos: nameItem.pos, start: delim.pos, end: this.items[this.i - 1].end, name, pipe };
  }

  /** `{{block "name" pipeline}} body {{end}}`: defines `name` and calls it in place. */
  private blockControl(delim: Item): TemplateCallNode {
    const context = 'block clause';
    const nameItem = this.nextNonSpace();
    const name = this.templateName(nameItem, context);
    const pipe = this.pipeline(context, 'rightDelim');
    const end = this.definedBody(delim, name, context);
    return { type: 'templateCall', pos: nameItem.pos, start: delim.pos, end: end.end, name, pipe };
  }

  private templateName(item: Item, context: string): string {
    if (item.type !== 'string' && item.type !== 'rawString') this.unexpected(item, context);
    return this.unquote(item);
  }

  private unquote(item: Item): string {
    try {
      return unquoteString(item.val);
    } catch (e) {
      this.errorf((e as Error).message, this.span(item));
    }
  }

  private command(): CommandNode {
    const start = this.peekNonSpace();
    const args: ArgNode[] = [];
    for (;;) {
      this.peekNonSpace();
      const operand = this.operand();
      if (operand) args.push(operand);
      const item = this.next();
      if (item.type === 'space') continue;
      if (item.type === 'rightDelim' || item.type === 'rightParen') this.backup();
      else if (item.type !== 'pipe') this.unexpected(item, 'operand');
      break;
    }
    if (args.length === 0) this.errorf('empty command', this.span(start));
    return { type: 'command', pos: start.pos, start: args[0].start, end: args[args.length - 1].end, args };
  }

  private operand(): ArgNode | null {
    const node = this.term();
    if (!node) return null;
    if (this.peek().type !== 'field') return node;
    const chainPos = this.peek().pos;
    const fields: string[] = [];
    let end = node.end;
    while (this.peek().type === 'field') {
      const f = this.next();
      fields.push(f.val.slice(1));
      end = f.end;
    }
    switch (node.type) {
      case 'field':
        // Go keeps .a.b as one field node but positions it at the second segment.
        return { type: 'field', pos: chainPos, start: node.start, end, ident: [...node.ident, ...fields] };
      case 'variable':
        return { type: 'variable', pos: chainPos, start: node.start, end, ident: [...node.ident, ...fields] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        this.errorf(`unexpected . after term ${JSON.stringify(nodeString(node))}`, { start: node.start, end });
      // falls through (errorf throws)
      default:
        return { type: 'chain', pos: chainPos, start: node.start, end, node, field: fields };
    }
  }

  private term(): ArgNode | null {
    const item = this.nextNonSpace();
    const base = { pos: item.pos, start: item.pos, end: item.end };
    switch (item.type) {
      case 'identifier':
        if (!this.hasFunction(item.val)) this.errorf(`function ${JSON.stringify(item.val)} not defined`, this.span(item));
        return { type: 'identifier', ...base, ident: item.val };
      case 'dot':
        return { type: 'dot', ...base };
      case 'nil':
        return { type: 'nil', ...base };
      case 'variable':
        return this.useVar(item);
      case 'field':
        return { type: 'field', ...base, ident: [item.val.slice(1)] };
      case 'bool':
        return { type: 'bool', ...base, value: item.val === 'true' };
      case 'charConstant':
      case 'complex':
      case 'number':
        try {
          return { type: 'number', ...base, text: item.val, ...parseNumber(item.val, item.type === 'charConstant') };
        } catch (e) {
          this.errorf((e as Error).message, this.span(item));
        }
      // falls through (errorf throws)
      case 'leftParen': {
        this.enter();
        try {
          const pipe = this.pipeline('parenthesized pipeline', 'rightParen');
          // The pipe keeps Go's position (after the paren) but spans the parentheses.
          return { ...pipe, start: item.pos, end: this.items[this.i - 1].end };
        } finally {
          this.nesting--;
        }
      }
      case 'string':
      case 'rawString':
        return { type: 'string', ...base, quoted: item.val, text: this.unquote(item) };
    }
    this.backup();
    return null;
  }

  private useVar(item: Item): ArgNode {
    const ident = item.val.split('.');
    if (!this.vars.includes(ident[0])) this.errorf(`undefined variable ${JSON.stringify(ident[0])}`, this.span(item));
    return { type: 'variable', pos: item.pos, start: item.pos, end: item.end, ident };
  }
}

/** Go's `parse.IsEmptyTree`: only whitespace text (and comments). */
function isEmptyTree(list: ListNode): boolean {
  return list.nodes.every((n) => n.type === 'text' && n.text.trim() === '');
}

/**
 * Parses `text` as the template `name`, checking function names with `hasFunction` as Go does at parse
 * time. Throws a {@link TemplateFailure} of kind `syntax`.
 */
export function parseTemplate(text: string, name: string, hasFunction: (name: string) => boolean): ParsedTemplates {
  const trees = new Map<string, ListNode>();
  const parser = new Parser(text, lex(text), name, hasFunction, trees);
  const root = parser.parseRoot();
  parser.addTree(name, root, { start: 0, end: text.length });
  return { name, trees };
}
