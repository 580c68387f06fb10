/**
 * Parse tree of a Go template, shaped like Go's `text/template/parse` nodes.
 *
 * Every node keeps two kinds of position: `pos` is where Go puts the node (used for the `line:col` of Go's
 * execution errors — for `.a.b` Go points at `.b`), while `start`/`end` span the node's whole source
 * text (used for editor ranges).
 */

interface NodeBase {
  /** Go's node position (UTF-16 offset). */
  readonly pos: number;
  /** Start of the node's source text (UTF-16 offset). */
  readonly start: number;
  /** End of the node's source text (UTF-16 offset, exclusive). */
  readonly end: number;
}

/** Literal text between actions. */
export interface TextNode extends NodeBase {
  readonly type: 'text';
  readonly text: string;
}

/** `{{ pipeline }}`: prints the pipeline's value unless it declares variables. */
export interface ActionNode extends NodeBase {
  readonly type: 'action';
  readonly pipe: PipeNode;
}

/** A sequence of nodes (a template body or a branch). */
export interface ListNode extends NodeBase {
  readonly type: 'list';
  readonly nodes: TemplateNode[];
}

/** `if`, `with` and `range` share Go's BranchNode shape. */
export interface BranchNode extends NodeBase {
  readonly type: 'if' | 'with' | 'range';
  readonly pipe: PipeNode;
  readonly list: ListNode;
  readonly elseList: ListNode | null;
}

/** `{{break}}` inside `range`. */
export interface BreakNode extends NodeBase {
  readonly type: 'break';
}

/** `{{continue}}` inside `range`. */
export interface ContinueNode extends NodeBase {
  readonly type: 'continue';
}

/** `{{template "name" pipeline}}` (also what `{{block}}` leaves in place). */
export interface TemplateCallNode extends NodeBase {
  readonly type: 'templateCall';
  readonly name: string;
  readonly pipe: PipeNode | null;
}

/** Internal markers returned by the parser for `{{end}}` and `{{else}}`; never in a finished tree. */
export interface EndNode extends NodeBase {
  readonly type: 'end';
}

/** Parser marker for `{{else}}`. */
export interface ElseNode extends NodeBase {
  readonly type: 'else';
}

/** Nodes that can appear in a list. */
export type TemplateNode = TextNode | ActionNode | BranchNode | BreakNode | ContinueNode | TemplateCallNode;

/** A variable declared by a pipeline (`$x :=`). */
export interface VariableRef {
  readonly name: string;
  readonly pos: number;
  readonly end: number;
}

/** Declarations and `|`-separated commands; also a parenthesized argument. */
export interface PipeNode extends NodeBase {
  readonly type: 'pipe';
  readonly isAssign: boolean;
  readonly decl: VariableRef[];
  readonly cmds: CommandNode[];
}

/** One pipeline stage: an operand or a function with arguments. */
export interface CommandNode extends NodeBase {
  readonly type: 'command';
  readonly args: ArgNode[];
}

/** `.a.b`: fields of dot. */
export interface FieldNode extends NodeBase {
  readonly type: 'field';
  /** `.a.b` → `['a', 'b']`. */
  readonly ident: string[];
}

/** `(pipeline).a.b` or `$x.a` after a non-field term. */
export interface ChainNode extends NodeBase {
  readonly type: 'chain';
  readonly node: ArgNode;
  readonly field: string[];
}

/** `$x` or `$x.a.b`. */
export interface VariableNode extends NodeBase {
  readonly type: 'variable';
  /** `$x.a.b` → `['$x', 'a', 'b']`. */
  readonly ident: string[];
}

/** A function name. */
export interface IdentifierNode extends NodeBase {
  readonly type: 'identifier';
  readonly ident: string;
}

/** `.` itself. */
export interface DotNode extends NodeBase {
  readonly type: 'dot';
}

/** The untyped `nil`. */
export interface NilNode extends NodeBase {
  readonly type: 'nil';
}

/** `true` or `false`. */
export interface BoolNode extends NodeBase {
  readonly type: 'bool';
  readonly value: boolean;
}

/** A number literal with the interpretations Go's `newNumber` found valid. */
export interface NumberNode extends NodeBase {
  readonly type: 'number';
  readonly text: string;
  readonly isInt: boolean;
  readonly isFloat: boolean;
  readonly int: number;
  readonly float: number;
}

/** A "quoted" or `raw` string literal. */
export interface StringNode extends NodeBase {
  readonly type: 'string';
  /** The literal as written, with quotes. */
  readonly quoted: string;
  readonly text: string;
}

/** Operands of a command. */
export type ArgNode =
  | FieldNode
  | ChainNode
  | VariableNode
  | IdentifierNode
  | DotNode
  | NilNode
  | BoolNode
  | NumberNode
  | StringNode
  | PipeNode;

/** Any node, for error contexts. */
export type AnyNode = TemplateNode | ListNode | ArgNode | CommandNode | EndNode | ElseNode;

/** Go's `Node.String()`: the canonical text Go prints in `at <...>` error contexts. */
export function nodeString(node: AnyNode): string {
  switch (node.type) {
    case 'text':
      return node.text;
    case 'action':
      return `{{${nodeString(node.pipe)}}}`;
    case 'list':
      return node.nodes.map(nodeString).join('');
    case 'if':
    case 'with':
    case 'range': {
      const elsePart = node.elseList ? `{{else}}${nodeString(node.elseList)}` : '';
      return `{{${node.type} ${nodeString(node.pipe)}}}${nodeString(node.list)}${elsePart}{{end}}`;
    }
    case 'break':
      return '{{break}}';
    case 'continue':
      return '{{continue}}';
    case 'templateCall':
      return node.pipe ? `{{template ${JSON.stringify(node.name)} ${nodeString(node.pipe)}}}` : `{{template ${JSON.stringify(node.name)}}}`;
    case 'end':
      return '{{end}}';
    case 'else':
      return '{{else}}';
    case 'pipe': {
      const decl = node.decl.length ? `${node.decl.map((d) => d.name).join(', ')}${node.isAssign ? ' = ' : ' := '}` : '';
      return decl + node.cmds.map(nodeString).join(' | ');
    }
    case 'command':
      return node.args.map((a) => (a.type === 'pipe' ? `(${nodeString(a)})` : nodeString(a))).join(' ');
    case 'field':
      return node.ident.map((f) => `.${f}`).join('');
    case 'chain': {
      const base = node.node.type === 'pipe' ? `(${nodeString(node.node)})` : nodeString(node.node);
      return base + node.field.map((f) => `.${f}`).join('');
    }
    case 'variable':
      return node.ident.join('.');
    case 'identifier':
      return node.ident;
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return node.value ? 'true' : 'false';
    case 'number':
      return node.text;
    case 'string':
      return node.quoted;
  }
}
