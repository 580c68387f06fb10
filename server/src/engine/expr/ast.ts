import type { TextRange } from './range';
import type { UntrustedRegexp } from './regexp/re2';
import { OPERATOR_SYMBOLS, type BinaryOperatorKind } from './tokens';

/** `$NAME` — evaluates to the variable's value or `null` when undefined. */
export interface VariableNode {
  readonly type: 'variable';
  readonly name: string;
  readonly range: TextRange;
}

/** `$[[ inputs.NAME ]]` — evaluates to the input's value or `null` when absent. */
export interface InputNode {
  readonly type: 'input';
  readonly name: string;
  readonly range: TextRange;
}

/** `"text"` or `'text'` — no escapes; `value` is the text between the quotes. */
export interface StringNode {
  readonly type: 'string';
  readonly value: string;
  readonly quote: '"' | "'";
  readonly range: TextRange;
}

/** `/pattern/flags` — compiled with RE2 when the tree is built (invalid → syntax error). */
export interface PatternNode {
  readonly type: 'pattern';
  readonly regexp: UntrustedRegexp;
  readonly range: TextRange;
}

/** `null`. */
export interface NullNode {
  readonly type: 'null';
  readonly range: TextRange;
}

/** `true` / `false`. */
export interface BooleanNode {
  readonly type: 'boolean';
  readonly value: boolean;
  readonly range: TextRange;
}

/** `left <op> right`; `range` covers both operands and the operator, `operatorRange` the operator only. */
export interface BinaryNode {
  readonly type: 'binary';
  readonly operator: BinaryOperatorKind;
  readonly left: ExprNode;
  readonly right: ExprNode;
  readonly operatorRange: TextRange;
  readonly range: TextRange;
}

/** `!operand` (only with the `unaryNot` dialect option). */
export interface NotNode {
  readonly type: 'not';
  readonly operand: ExprNode;
  readonly operatorRange: TextRange;
  readonly range: TextRange;
}

/** A node of the parse tree GitLab builds (parentheses only group; they leave no node). */
export type ExprNode = VariableNode | InputNode | StringNode | PatternNode | NullNode | BooleanNode | BinaryNode | NotNode;

/** Calls `visit` for `node` and every node below it, parents first, left before right. */
export function walkExpression(node: ExprNode, visit: (node: ExprNode) => void): void {
  visit(node);
  if (node.type === 'binary') {
    walkExpression(node.left, visit);
    walkExpression(node.right, visit);
  } else if (node.type === 'not') {
    walkExpression(node.operand, visit);
  }
}

/**
 * The tree written back as text with every operator parenthesized, e.g. `(($A == "x") || $B)`, so a hover
 * can show how GitLab grouped the expression.
 */
export function formatExpressionTree(node: ExprNode): string {
  switch (node.type) {
    case 'variable':
      return `$${node.name}`;
    case 'input':
      return `$[[ inputs.${node.name} ]]`;
    case 'string':
      return `${node.quote}${node.value}${node.quote}`;
    case 'pattern':
      return node.regexp.toString();
    case 'null':
      return 'null';
    case 'boolean':
      return String(node.value);
    case 'binary':
      return `(${formatExpressionTree(node.left)} ${OPERATOR_SYMBOLS[node.operator]} ${formatExpressionTree(node.right)})`;
    case 'not':
      return `!${formatExpressionTree(node.operand)}`;
  }
}
