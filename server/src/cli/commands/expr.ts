import { evaluate, expressionDialect, GITLAB_VERSIONS, isGitlabVersion, isRecord, NEWEST_GITLAB_VERSION, type EvaluateOptions, type EvaluationResult, type ExprError, type ExprValue, type InputValue } from '../../engine/api';
import { parseArgs, UsageError } from '../args';
import type { CliCommand, CliIo } from '../io';

const USAGE =
  'agentcfg expr <expression> [--var KEY=VALUE]... [--input NAME=VALUE]... [--json] [--gitlab-version <16.0…19.5>] [--unary-not]\n' +
  '       agentcfg expr --batch [--gitlab-version <v>] [--unary-not]   (NDJSON on stdin: {"expr": "...", "vars": {...}, "inputs": {...}})';

/** Exit status when the expression cannot be evaluated (syntax error, or an error GitLab does not rescue). */
export const EXIT_EXPRESSION_ERROR = 2;

/**
 * `agentcfg expr`: evaluates a `rules:if` expression exactly as GitLab would (docs/gitlab-behaviour.md#ci-expressions-and-variables).
 *
 * Plain output is the value — strings raw, `null`, `true`/`false`, a regexp as `/pattern/flags` — and exit 0.
 * `--json` prints one line `{"value": …, "truthy": …}` or `{"error": …, "range": {"start", "end"}, "kind": …}`
 * (exit 2 on error). `--batch` reads NDJSON requests from stdin and writes one such line per request as the
 * requests arrive (streaming, memory flat in the number of lines); it exits 0 unless stdin cannot be read.
 */
export const exprCommand: CliCommand = {
  name: 'expr',
  summary: 'Evaluate a rules:if expression exactly as GitLab does.',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['gitlab-version'], repeated: ['var', 'input'], flags: ['json', 'batch', 'unary-not'] });
    // The dialect of the chosen GitLab release (docs/gitlab-behaviour.md#rulesif-by-version): `!` from 18.11.
    // Without --gitlab-version, the newest release, as every other face; --unary-not forces `!` on.
    const version = args.values['gitlab-version'] ?? NEWEST_GITLAB_VERSION;
    if (!isGitlabVersion(version)) throw new UsageError(`--gitlab-version must be a GitLab release from ${GITLAB_VERSIONS[0]} to ${NEWEST_GITLAB_VERSION}, got "${version}"`);
    const unaryNot = args.flags.has('unary-not') || expressionDialect(version).unaryNot;
    if (args.flags.has('batch')) {
      if (args.positional.length || args.repeated.var || args.repeated.input) {
        throw new UsageError('--batch takes its expressions and variables from stdin only');
      }
      return runBatch(io, unaryNot);
    }
    if (args.positional.length !== 1) throw new UsageError('give exactly one expression (quote it for the shell)');
    const expression = args.positional[0]!;
    const vars = parsePairs(args.repeated.var ?? [], '--var');
    const inputs: Record<string, InputValue> = parsePairs(args.repeated.input ?? [], '--input');
    const result = evaluate(expression, vars, { unaryNot, inputs });
    if (args.flags.has('json')) {
      io.out(JSON.stringify(resultJson(result)) + '\n');
    } else if (result.ok) {
      io.out(plainValue(result.value) + '\n');
    } else {
      io.err(describeError(expression, result.error));
    }
    return result.ok ? 0 : EXIT_EXPRESSION_ERROR;
  },
};

function parsePairs(pairs: readonly string[], option: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${option} needs KEY=VALUE, got "${pair}"`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** The JSON line for one evaluation (the same shape in single and batch mode). */
export function resultJson(result: EvaluationResult): Record<string, unknown> {
  if (!result.ok) {
    const e = result.error;
    return { error: e.message, range: { start: e.range.start, end: e.range.end }, kind: e.kind, ...(e.detail ? { detail: e.detail } : {}) };
  }
  const v = result.value;
  if (v !== null && typeof v === 'object') return { value: v.toString(), truthy: result.truthy, regexp: true };
  return { value: v, truthy: result.truthy };
}

function plainValue(value: ExprValue): string {
  return value === null ? 'null' : String(value);
}

/** The error with the expression and carets under the offending range. */
function describeError(expression: string, error: ExprError): string {
  const width = Math.max(1, error.range.end - error.range.start);
  const lines = [
    `agentcfg expr: ${error.message}${error.detail ? ` (${error.detail})` : ''}`,
    `  ${expression}`,
    `  ${' '.repeat(error.range.start)}${'^'.repeat(width)}`,
  ];
  return lines.join('\n') + '\n';
}

/** Output is handed on in pieces of about this many characters (one write per piece, not per line). */
const BATCH_WRITE_CHARS = 64 * 1024;

/**
 * Streams: each line is answered as it arrives; the answers are written every 64 KiB and whenever
 * stdin has given all it has for now (so a script can wait for an answer before its next request),
 * and the next piece of stdin is read only once the output has taken the previous answers
 * (back-pressure), so memory stays flat in the number of lines.
 */
async function runBatch(io: CliIo, unaryNot: boolean): Promise<number> {
  const write = io.write ? (text: string) => io.write!(text) : async (text: string) => io.out(text);
  const pieces = (io.stdinText ? io.stdinText() : wholeStdin(io))[Symbol.asyncIterator]();
  /** The start of a line whose end has not arrived yet. */
  let pending = '';
  let lineNumber = 0;
  let out = '';
  for (;;) {
    let next: IteratorResult<string>;
    try {
      next = await pieces.next();
    } catch (err) {
      if (out) await write(out);
      io.err(`agentcfg expr: cannot read stdin: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
    if (next.done) break;
    const text = pending + next.value;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      out += answerLine(text.slice(start, end), ++lineNumber, unaryNot);
      start = end + 1;
      if (out.length >= BATCH_WRITE_CHARS) {
        await write(out);
        out = '';
      }
    }
    pending = text.slice(start);
    // What arrived is answered before waiting for more: a script may wait for an answer before its next request.
    if (out) {
      await write(out);
      out = '';
    }
  }
  if (pending) out += answerLine(pending, ++lineNumber, unaryNot);
  if (out) await write(out);
  return 0;
}

async function* wholeStdin(io: CliIo): AsyncIterable<string> {
  yield await io.readStdin();
}

/** The answer to one NDJSON line (`\r\n` endings taken), with its newline; a blank line gets none. */
function answerLine(raw: string, lineNumber: number, unaryNot: boolean): string {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (!line.trim()) return '';
  const request = parseRequest(line);
  const json = 'problem' in request ? { error: `line ${lineNumber}: ${request.problem}`, range: null, kind: 'input' } : resultJson(evaluate(request.expr, request.vars, { ...request.options, unaryNot }));
  return JSON.stringify(json) + '\n';
}

type BatchRequest =
  | { readonly expr: string; readonly vars: Record<string, string>; readonly options: EvaluateOptions }
  | { readonly problem: string };

/** One NDJSON request; scalar variable values are stringified (GitLab variables are strings), null ones dropped. */
function parseRequest(line: string): BatchRequest {
  let data: unknown;
  try {
    data = JSON.parse(line);
  } catch {
    return { problem: 'not valid JSON' };
  }
  if (!isRecord(data) || typeof data.expr !== 'string') return { problem: 'expected {"expr": "...", "vars": {...}}' };
  const vars: Record<string, string> = {};
  if (data.vars !== undefined) {
    if (!isRecord(data.vars)) return { problem: '"vars" must be an object' };
    for (const [k, v] of Object.entries(data.vars)) {
      if (v === null) continue;
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return { problem: `variable ${k} must be a string` };
      vars[k] = String(v);
    }
  }
  const inputs: Record<string, InputValue> = {};
  if (data.inputs !== undefined) {
    if (!isRecord(data.inputs)) return { problem: '"inputs" must be an object' };
    for (const [k, v] of Object.entries(data.inputs)) {
      if (v !== null && typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return { problem: `input ${k} must be a scalar` };
      inputs[k] = v;
    }
  }
  return { expr: data.expr, vars, options: { inputs } };
}
