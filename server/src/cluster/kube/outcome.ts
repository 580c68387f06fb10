/**
 * Results, not exceptions, cross the cluster boundary (ARCHITECTURE.md): every cluster call ends in a
 * {@link ClusterOutcome} that the LSP and the CLI render with {@link describeOutcome}.
 */
import { describeForbidden, type ForbiddenAdvice } from './forbidden';
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
  /** 403; `consequence` says what the refusal means for the operation ("so the cluster cannot say …"). */
  | { readonly type: 'forbidden'; readonly ref?: ObjectRef; readonly message: string; readonly consequence?: string }
  /** 401: the credentials were refused (expired token, revoked certificate). */
  | { readonly type: 'unauthorized'; readonly ref?: ObjectRef; readonly message: string }
  /** 409: for server-side apply, the other field managers owning the fields we set. */
  | { readonly type: 'conflict'; readonly ref?: ObjectRef; readonly managers: readonly string[]; readonly causes: readonly StatusCause[]; readonly message: string }
  /** 422 (or 400): the API server rejected the object itself. */
  | { readonly type: 'invalid'; readonly ref?: ObjectRef; readonly causes: readonly StatusCause[]; readonly message: string }
  /** The cluster does not serve this apiVersion/kind (a CRD is missing). */
  | { readonly type: 'unknownKind'; readonly ref?: ObjectRef; readonly message: string }
  /**
   * The API server was not reached: the network (connection refused, DNS), the server's certificate
   * (not trusted, expired, wrong name), the TLS handshake, or our own credentials (a client key,
   * certificate or CA the kubeconfig names that cannot be read or used) — see {@link UnreachableCause}.
   */
  | {
      readonly type: 'unreachable';
      readonly ref?: ObjectRef;
      readonly code?: string;
      readonly message: string;
      /** Default `network`. */
      readonly cause?: UnreachableCause;
      /** The kubeconfig context, when the caller knows it (for the message). */
      readonly context?: string;
    }
  | { readonly type: 'timeout'; readonly ref?: ObjectRef; readonly message: string }
  | { readonly type: 'cancelled'; readonly ref?: ObjectRef; readonly message: string }
  /** A guard of this tool refused the action before anything was sent. */
  | { readonly type: 'refused'; readonly ref?: ObjectRef; readonly message: string }
  /** Anything else (5xx, unexpected responses). */
  | { readonly type: 'failed'; readonly ref?: ObjectRef; readonly status?: number; readonly message: string };

/**
 * Why a cluster was not reached: `network`; `serverCertificate` (the server's certificate failed
 * verification against the kubeconfig's CA, or its name or dates); `tls` (another handshake
 * failure); `credentials` (the client certificate, key or CA named by the kubeconfig cannot be read
 * or used — nothing was sent).
 */
export type UnreachableCause = 'network' | 'serverCertificate' | 'tls' | 'credentials';

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
/**
 * OpenSSL's certificate verification results as Node names them (X509_V_ERR_*, without the prefix),
 * and Node's own host-name check: the server's certificate was not accepted.
 */
const SERVER_CERTIFICATE_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);
const NAME_CODES = new Set(['HOSTNAME_MISMATCH', 'ERR_TLS_CERT_ALTNAME_INVALID']);
const DATE_CODES = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'ERROR_IN_CERT_NOT_BEFORE_FIELD', 'ERROR_IN_CERT_NOT_AFTER_FIELD']);
/** File errors: client-node reads the files the kubeconfig names (client key and certificate, CA) per request. */
const FILE_CODES = new Set(['ENOENT', 'EACCES', 'EISDIR', 'EPERM', 'ENOTDIR', 'ELOOP']);

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown; cause?: { code?: unknown } } | null)?.code ?? (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The reason node-fetch wraps (`request to … failed, reason: <reason>`), else the message. */
function reasonOf(message: string): string {
  return /, reason: (.*)$/s.exec(message)?.[1] ?? message;
}

/** A TLS or credential failure, or undefined when `code` is neither. */
function tlsOrCredentialFailure(err: unknown, code: string, message: string, ref: ObjectRef | undefined): ClusterFailure | undefined {
  const reason = reasonOf(message);
  if (SERVER_CERTIFICATE_CODES.has(code)) return { type: 'unreachable', ref, code, cause: 'serverCertificate', message: reason };
  // OpenSSL could not decode or use a key or certificate we were to present (garbage PEM, a key
  // that does not match its certificate): client-side, before the server saw anything.
  if (code.startsWith('ERR_OSSL_')) return { type: 'unreachable', ref, code, cause: 'credentials', message: `The client certificate, key or CA data in the kubeconfig cannot be used (${reason})` };
  if (FILE_CODES.has(code)) {
    const file = (err as { path?: unknown } | null)?.path;
    return { type: 'unreachable', ref, code, cause: 'credentials', message: `Cannot read ${typeof file === 'string' ? file : 'a file'} named by the kubeconfig: ${code}` };
  }
  if (/^ERR_SSL_|^ERR_TLS_|^EPROTO$/.test(code)) return { type: 'unreachable', ref, code, cause: 'tls', message: reason };
  return undefined;
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
  const tls = code ? tlsOrCredentialFailure(err, code, message, ref) : undefined;
  if (tls) return tls;
  if (code && UNREACHABLE_CODES.has(code)) return { type: 'unreachable', ref, code, message };
  if (/certificate/i.test(message)) return { type: 'unreachable', ref, code, cause: 'serverCertificate', message: reasonOf(message) };
  if (/ECONNREFUSED|ENOTFOUND|getaddrinfo|socket hang up/i.test(message)) return { type: 'unreachable', ref, code, message };
  return { type: 'failed', ref, message };
}

function subject(ref: ObjectRef | undefined): string {
  return ref ? formatRef(ref) : 'the cluster';
}

function causesText(causes: readonly StatusCause[]): string {
  const parts = causes.map((c) => [c.field, c.message].filter(Boolean).join(': ')).filter((t) => t !== '');
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}

/** One clear sentence (or two): what failed, on which object, and what to do — a 403 in the words of the face given by `advice` (kube/session.ts). */
export function describeOutcome(outcome: ClusterOutcome<unknown>, advice?: ForbiddenAdvice): string {
  switch (outcome.type) {
    case 'ok':
      return 'done';
    case 'notFound':
      return `${subject(outcome.ref)} was not found: ${outcome.message}`;
    case 'forbidden':
      return describeForbidden([outcome], advice ? { advice } : {});
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
      return describeUnreachable(outcome);
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

/** The unreachable failures by cause: each names what failed and where to fix it. */
function describeUnreachable(outcome: Extract<ClusterFailure, { type: 'unreachable' }>): string {
  const context = outcome.context ? ` "${outcome.context}"` : '';
  const where = outcome.ref ? ` (while working on ${formatRef(outcome.ref)})` : '';
  const code = outcome.code && !outcome.message.includes(outcome.code) ? `, ${outcome.code}` : '';
  switch (outcome.cause ?? 'network') {
    case 'serverCertificate':
      if (outcome.code && NAME_CODES.has(outcome.code)) {
        return `The cluster's certificate is not valid for the server address of kubeconfig context${context} (${outcome.message}${code}): use an address the certificate names, or set tls-server-name in the context's cluster entry.`;
      }
      if (outcome.code && DATE_CODES.has(outcome.code)) {
        return `The cluster's certificate is outside its validity period (${outcome.message}${code}): renew the API server's certificate, or check this machine's clock.`;
      }
      return `The cluster's certificate is not trusted by the CA in kubeconfig context${context} (${outcome.message}${code}): check certificate-authority-data (or certificate-authority) of the context's cluster; it must be the CA that signed the API server's certificate.`;
    case 'tls':
      return `The TLS handshake with the cluster failed${where} (${outcome.message}${code}): check that the server address of kubeconfig context${context} is the API server's https address and port.`;
    case 'credentials':
      return `${outcome.message}${context && !outcome.message.includes(context) ? ` (kubeconfig context${context})` : ''}. Fix the kubeconfig entry, or log in again to get new credentials; nothing was sent to the cluster.`;
    case 'network':
      return `Cannot reach the cluster${where}: ${outcome.message}. Check the context's server address, the network, and that the API server is running.`;
  }
}
