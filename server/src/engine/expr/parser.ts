import type { ExprNode } from './ast';
import { exprError, type ExprError } from './errors';
import { lex, type ExprOptions } from './lexer';
import { coverRanges, textRange } from './range';
import { fabricateRubyRegexp } from './regexp/ruby-syntax';
import { isBinaryOperatorToken, isValueToken, PRECEDENCE, type Token } from './tokens';

/** Result of {@link parseExpression}: the tree with its tokens, or the first error GitLab would raise. */
export type ParseResult =
  | { readonly ok: true; readonly ast: ExprNode; readonly tokens: readonly Token[] }
  | { readonly ok: false; readonly error: ExprError; readonly tokens: readonly Token[] };

type NodeResult = { readonly ok: true; readonly node: ExprNode } | { readonly ok: false; readonly error: ExprError };

/**
 * Lexes and parses a `rules:if` expression the way `Statement#parse_tree` does (docs/gitlab-behaviour.md#ci-expressions-and-variables):
 * lexer errors first; no tokens → StatementError; shunting-yard to RPN (`Unmatched parenthesis`); then the
 * RPN is folded into a tree, building operands (a pattern literal must compile with RE2) and operators
 * (each needs two operands) in RPN order; finally exactly one root must remain.
 */
export function parseExpression(expression: string, options: ExprOptions = {}): ParseResult {
  const lexed = lex(expression, options);
  if (!lexed.ok) return lexed;
  const tokens = lexed.tokens;
  if (tokens.length === 0) {
    return { ok: false, error: exprError('statement', 'Empty expression', textRange(0, expression.length)), tokens };
  }
  const rpn = toRpn(tokens);
  if (!rpn.ok) return { ok: false, error: rpn.error, tokens };
  const tree = buildTree(rpn.output, expression.length);
  return tree.ok ? { ok: true, ast: tree.node, tokens } : { ok: false, error: tree.error, tokens };
}

type RpnResult = { readonly ok: true; readonly output: readonly Token[] } | { readonly ok: false; readonly error: ExprError };

function precedenceOf(token: Token): number {
  // Value tokens never reach the operator stack.
  return PRECEDENCE[token.kind as keyof typeof PRECEDENCE];
}

/** `Lexeme::Base.consume?`: the incoming token pops the stack top while its precedence is >= the top's. */
function consumes(incoming: Token, top: Token | undefined): top is Token {
  return top !== undefined && precedenceOf(incoming) >= precedenceOf(top);
}

/** `Parser#tokens_rpn`: GitLab's shunting-yard, including its treatment of parentheses. */
function toRpn(tokens: readonly Token[]): RpnResult {
  const output: Token[] = [];
  const operators: Token[] = [];
  for (const token of tokens) {
    if (isValueToken(token.kind)) {
      output.push(token);
    } else if (isBinaryOperatorToken(token.kind)) {
      while (consumes(token, operators[operators.length - 1])) output.push(operators.pop()!);
      operators.push(token);
    } else if (token.kind === 'parenOpen' || token.kind === 'not') {
      operators.push(token);
    } else {
      // `)` pops every operator (all have precedence <= 900) down to the nearest `(` (901).
      while (consumes(token, operators[operators.length - 1])) output.push(operators.pop()!);
      const top = operators[operators.length - 1];
      if (!top) return { ok: false, error: exprError('parse', 'Unmatched parenthesis', token.range) };
      if (top.kind === 'parenOpen') operators.pop();
    }
  }
  for (let i = operators.length - 1; i >= 0; i--) output.push(operators[i]!);
  return { ok: true, output };
}

/** `Parser#tree`: folds the RPN into nodes; an unmatched `(` is left in the output and is unprocessable. */
function buildTree(rpn: readonly Token[], expressionLength: number): NodeResult {
  const results: ExprNode[] = [];
  for (const token of rpn) {
    if (isValueToken(token.kind)) {
      const leaf = buildValue(token);
      if (!leaf.ok) return leaf;
      results.push(leaf.node);
    } else if (token.kind === 'not') {
      const operand = results.pop();
      if (!operand) return { ok: false, error: exprError('operator', 'Invalid operand', token.range) };
      results.push({ type: 'not', operand, operatorRange: token.range, range: coverRanges(token.range, operand.range) });
    } else if (isBinaryOperatorToken(token.kind)) {
      const right = results.pop();
      const left = results.pop();
      // GitLab checks the left operand first; with one operand available it is taken as the right one,
      // so `$A ==` says "Invalid left operand" (GitLab's words, kept): the detail says what is missing.
      if (!left) return { ok: false, error: exprError('operator', 'Invalid left operand', token.range, missingOperands(token, right, expressionLength)) };
      if (!right) return { ok: false, error: exprError('operator', 'Invalid right operand', token.range, `\`${token.text}\` has no right operand`) };
      results.push({
        type: 'binary',
        operator: token.kind,
        left,
        right,
        operatorRange: token.range,
        range: coverRanges(token.range, left.range, right.range),
      });
    } else {
      const type = token.kind === 'parenOpen' ? 'parenthesis_open' : 'parenthesis_close';
      return {
        ok: false,
        error: exprError('parse', `Unprocessable token found in parse tree: ${type}`, token.range, 'this `(` is never closed'),
      };
    }
  }
  if (results.length > 1) {
    const [, first, ...rest] = results;
    return {
      ok: false,
      error: exprError(
        'parse',
        'Unreachable nodes in parse tree',
        coverRanges(first!.range, ...rest.map((n) => n.range)),
        'operands must be joined by an operator',
      ),
    };
  }
  const root = results[0];
  if (!root) return { ok: false, error: exprError('parse', 'Empty parse tree', textRange(0, expressionLength)) };
  return { ok: true, node: root };
}

/** Builds an operand node from its token (`Lexeme::*.build`). */
function buildValue(token: Token): NodeResult {
  const range = token.range;
  switch (token.kind) {
    case 'variable':
      return { ok: true, node: { type: 'variable', name: token.text.slice(1), range } };
    case 'input':
      return { ok: true, node: { type: 'input', name: /inputs\.([A-Za-z0-9_]+)/.exec(token.text)![1]!, range } };
    case 'string':
      return { ok: true, node: { type: 'string', value: token.text.slice(1, -1), quote: token.text[0] as '"' | "'", range } };
    case 'null':
      return { ok: true, node: { type: 'null', range } };
    case 'boolean':
      return { ok: true, node: { type: 'boolean', value: token.text === 'true', range } };
    default: {
      const fabricated = fabricateRubyRegexp(token.text);
      if (fabricated.kind === 'regexp') return { ok: true, node: { type: 'pattern', regexp: fabricated.regexp, range } };
      const detail = fabricated.kind === 'invalid' ? fabricated.detail : 'not a /pattern/flags literal';
      return { ok: false, error: exprError('syntax', 'Invalid regular expression!', range, detail) };
    }
  }
}

/**
 * What an operator lacks, in words: GitLab's "Invalid left operand" also covers `$A ==` (one operand,
 * taken as the right one), where the missing one is the right.
 */
function missingOperands(operator: Token, only: ExprNode | undefined, expressionLength: number): string {
  const name = `\`${operator.text}\``;
  if (!only) return `${name} has no operands`;
  // The single operand stands before the operator: the right one is missing (`$A ==`, `$A == "x" &&`).
  if (only.range.start < operator.range.start) return `${name} has no right operand${operator.range.end >= expressionLength ? ': the expression ends after it' : ''}`;
  return `${name} has no left operand`;
}
