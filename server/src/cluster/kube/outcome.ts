/**
 * Results, not exceptions, cross the cluster boundary (ARCHITECTURE.md): every cluster call ends in a
 * {@link ClusterOutcome} that the LSP and the CLI render with {@link describeOutcome}.
 */
import { formatRef, type ObjectRef } from './objectRef';

/** One entry of a Kubernetes Status' `details.causes`. */
export interface StatusCause {
  readonly reason?: string;
  readonly message?: string;
  readonly field?: string;
}

/** What went wrong, by class; each failure may name the object it concerns. */
export type ClusterFailure =
  | { readonly type: 'notFound'; readonly ref?: ObjectRef; readonly message: string }
  | { readonly type: 'forbidden'; readonly ref?: ObjectRef; readonly message: string }
  /** 401: the credentials were refused (expired token, revoked certificate). */
  | { readonly type: 'unauthorized'; readonly ref?: ObjectRef; readonly message: string }
  /** 409: for server-side apply, the other field managers owning the fields we set. */
  | { readonly type: 'conflict'; readonly ref?: ObjectRef; readonly managers: readonly string[]; readonly causes: readonly StatusCause[]; readonly message: string }
  /** 422 (or 400): the API server rejected the object itself. */
  | { readonly type: 'invalid'; readonly ref?: ObjectRef; readonly causes: readonly StatusCause[]; readonly message: string }
  /** The cluster does not serve this apiVersion/kind (a CRD is missing). */
  | { readonly type: 'unknownKind'; readonly ref?: ObjectRef; readonly message: string }
  /** Connection refused, DNS failure, TLS failure: the API server was not reached. */
  | { readonly type: 'unreachable'; readonly ref?: ObjectRef; readonly code?: string; readonly message: string }
  | { readonly type: 'timeout'; readonly ref?: ObjectRef; readonly message: string }
  | { readonly type: 'cancelled'; readonly ref?: ObjectRef; readonly message: string }
  /** A guard of this tool refused the action before anything was sent. */
  | { readonly type: 'refused'; readonly ref?: ObjectRef; readonly message: string }
  /** Anything else (5xx, unexpected responses). */
  | { readonly type: 'failed'; readonly ref?: ObjectRef; readonly status?: number; readonly message: string };

/** Success with a value, or a {@link ClusterFailure}. */
export type ClusterOutcome<T> = { readonly type: 'ok'; readonly value: T } | ClusterFailure;

/** Wraps a value as a successful outcome. */
export function ok<T>(value: T): ClusterOutcome<T> {
  return { type: 'ok', value };
}

/** Whether an outcome is a failure (narrows the type). */
export function isFailure<T>(outcome: ClusterOutcome<T>): outcome is ClusterFailure {
  return outcome.type !== 'ok';
}

/** The parts of a Kubernetes `Status` body we read. */
interface StatusBody {
  message?: string;
  reason?: string;
  code?: number;
  details?: { causes?: StatusCause[] };
}

function parseStatusBody(body: unknown): StatusBody | undefined {
  let value: unknown = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body);
    } catch {
      return body.trim() === '' ? undefined : { message: body.trim() };
    }
  }
  return value !== null && typeof value === 'object' ? (value as StatusBody) : undefined;
}

/**
 * client-node's generated APIs put the response into the message (`HTTP-Code: 401\nMessage: …\nBody:
 * {json}\nHeaders: …`) and sometimes leave `body` empty: take the Status from there.
 */
function statusFromMessage(message: string): StatusBody | undefined {
  if (!message.startsWith('HTTP-Code:')) return undefined;
  const body = /^Body: (.*)$/m.exec(message)?.[1];
  const parsed = body && body !== 'undefined' ? parseStatusBody(body) : undefined;
  if (parsed?.message) return parsed;
  const line = /^Message: (.*)$/m.exec(message)?.[1];
  return line ? { message: line } : undefined;
}

const MANAGER_IN_CAUSE = /conflict with "((?:[^"\\]|\\.)*)"/;

/** The field managers named by a 409's causes (`conflict with "kubectl" using v1`), deduplicated. */
export function conflictManagers(causes: readonly StatusCause[], message = ''): string[] {
  const found = new Set<string>();
  for (const text of [...causes.map((c) => c.message ?? ''), ...message.split(/;|\n/)]) {
    const m = MANAGER_IN_CAUSE.exec(text);
    if (m) found.add(m[1].replace(/\\"/g, '"'));
  }
  return [...found];
}

/** Network error codes that mean "the API server was not reached". */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'ECONNABORTED']);
const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/;

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown; cause?: { code?: unknown } } | null)?.code ?? (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

function httpStatus(err: unknown): number | undefined {
  const e = err as { code?: unknown; statusCode?: unknown } | null;
  if (typeof e?.code === 'number') return e.code;
  if (typeof e?.statusCode === 'number') return e.statusCode;
  return undefined;
}

/**
 * Classifies anything a client-node call threw: ApiException (HTTP status + Status body), node-fetch
 * FetchError (system error codes), AbortError, client-node's discovery errors.
 */
export function outcomeFromError(err: unknown, ref?: ObjectRef): ClusterFailure {
  const message = err instanceof Error ? err.message : String(err);
  const name = (err as { name?: unknown } | null)?.name;
  if (name === 'AbortError' || (err as { type?: unknown } | null)?.type === 'aborted') return { type: 'cancelled', ref, message: 'cancelled' };
  const status = httpStatus(err);
  if (status !== undefined) {
    const body = parseStatusBody((err as { body?: unknown }).body) ?? statusFromMessage(message);
    const text = body?.message ?? message;
    const causes = body?.details?.causes ?? [];
    switch (status) {
      case 401:
        return { type: 'unauthorized', ref, message: text };
      case 403:
        return { type: 'forbidden', ref, message: text };
      case 404:
        return /Failed to fetch resource metadata/.test(message) ? { type: 'unknownKind', ref, message: text } : { type: 'notFound', ref, message: text };
      case 409:
        return { type: 'conflict', ref, managers: conflictManagers(causes, text), causes, message: text };
      case 400:
      case 422:
        return { type: 'invalid', ref, causes, message: text };
      case 408:
      case 504:
        return { type: 'timeout', ref, message: text };
      default:
        return { type: 'failed', ref, status, message: text };
    }
  }
  if (/^Unrecognized API version and kind/.test(message)) return { type: 'unknownKind', ref, message };
  const code = errorCode(err);
  if (code && (UNREACHABLE_CODES.has(code) || TLS_CODE.test(code))) return { type: 'unreachable', ref, code, message };
  if (/ECONNREFUSED|ENOTFOUND|getaddrinfo|socket hang up|certificate/i.test(message)) return { type: 'unreachable', ref, code, message };
  return { type: 'failed', ref, message };
}

function subject(ref: ObjectRef | undefined): string {
  return ref ? formatRef(ref) : 'the cluster';
}

function causesText(causes: readonly StatusCause[]): string {
  const parts = causes.map((c) => [c.field, c.message].filter(Boolean).join(': ')).filter((t) => t !== '');
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/** One clear sentence (or two): what failed, on which object, and what to do. */
export function describeOutcome(outcome: ClusterOutcome<unknown>): string {
  switch (outcome.type) {
    case 'ok':
      return 'done';
    case 'notFound':
      return `${subject(outcome.ref)} was not found: ${outcome.message}`;
    case 'forbidden':
      return `Forbidden on ${subject(outcome.ref)}: ${outcome.message}. Ask a cluster administrator for the permission, or select a context with more rights.`;
    case 'unauthorized':
      return `The cluster refused the credentials while working on ${subject(outcome.ref)} (401 Unauthorized): ${outcome.message}. Log in again or refresh the token of this kubeconfig context.`;
    case 'conflict':
      return outcome.managers.length > 0
        ? `Conflict on ${subject(outcome.ref)}: fields are owned by ${outcome.managers.map((m) => `"${m}"`).join(', ')}${causesText(outcome.causes)}. Apply again with force to take them over, or change the template to leave them alone.`
        : `Conflict on ${subject(outcome.ref)}: ${outcome.message}. Try again.`;
    case 'invalid':
      return `The cluster rejected ${subject(outcome.ref)} as invalid: ${outcome.message}${outcome.message.includes(':') ? '' : causesText(outcome.causes)}. Fix the template.`;
    case 'unknownKind':
      return `The cluster does not serve the kind of ${subject(outcome.ref)}: ${outcome.message}. Install its CustomResourceDefinition (for Flux kinds: install Flux) or fix apiVersion/kind.`;
    case 'unreachable':
      return `Cannot reach the cluster${outcome.ref ? ` (while working on ${formatRef(outcome.ref)})` : ''}: ${outcome.message}. Check the context's server address, the network, and that the API server is running.`;
    case 'timeout':
      return `Timed out on ${subject(outcome.ref)}: ${outcome.message}. Run again with a longer timeout, or look at the object's status.`;
    case 'cancelled':
      return `Cancelled${outcome.ref ? ` while working on ${formatRef(outcome.ref)}` : ''}. Running the operation again finishes it.`;
    case 'refused':
      // Guard messages usually name the object already.
      return outcome.ref && !outcome.message.includes(formatRef(outcome.ref)) ? `Refused ${formatRef(outcome.ref)}: ${outcome.message}` : outcome.message;
    case 'failed':
      return `Failed on ${subject(outcome.ref)}${outcome.status ? ` (HTTP ${outcome.status})` : ''}: ${outcome.message}`;
  }
}
