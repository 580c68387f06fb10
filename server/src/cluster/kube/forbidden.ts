/**
 * 403s as one message a person can act on: who was refused, each verb × resource ×
 * namespace once, and what to do — in the words of the face that shows it (the editor names no CLI
 * flag). Every path that turns a 403 into words comes here: one failure (describeOutcome) or the
 * several of a blocked plan (lsp/cluster/planViews.ts).
 */
import { formatRef, type ObjectRef } from './objectRef';

/** What the user can do about a refusal, per face (cluster/kube/session.ts holds the sets). */
export interface ForbiddenAdvice {
  /** e.g. "select a context with more rights (…)"; follows "Ask a cluster administrator for …, or ". */
  readonly moreRights: string;
}

/** Neither CLI nor editor words: for callers that did not say which face they serve. */
export const NEUTRAL_FORBIDDEN_ADVICE: ForbiddenAdvice = { moreRights: 'use a kubeconfig context with more rights' };

/** One refusal as the API server's authorizer words it. */
export interface Refusal {
  readonly user: string;
  readonly verb: string;
  readonly resource: string;
  /** '' for the core group. */
  readonly group: string;
  /** Absent: at cluster scope. */
  readonly namespace?: string;
}

/**
 * `User "u" cannot create resource "namespaces" in API group "" at the cluster scope` (and `… in the
 * namespace "n"`): the message of the RBAC authorizer's 403 (k8s.io/apiserver
 * pkg/endpoints/handlers/responsewriters/errors.go forbiddenMessage).
 */
const AUTHORIZER = /User "((?:[^"\\]|\\.)*)" cannot (\S+) resource "([^"]+)"(?: in API group "([^"]*)")?(?: in the namespace "([^"]+)"| at the cluster scope)?/;

export function parseRefusal(message: string): Refusal | undefined {
  const m = AUTHORIZER.exec(message);
  if (!m) return undefined;
  return { user: m[1], verb: m[2], resource: m[3], group: m[4] ?? '', ...(m[5] ? { namespace: m[5] } : {}) };
}

function refused(r: Refusal): string {
  return `${r.verb} ${r.resource}${r.group ? `.${r.group}` : ''} ${r.namespace ? `in namespace ${r.namespace}` : 'at cluster scope'}`;
}

/**
 * The failures' 403s as one message. `what` (the object, e.g. "review/x (gitlab-env-…)") prefixes it, and
 * `nothingChanged` says that nothing was changed (true of a blocked plan, not of a failure half-way).
 * A message the authorizer did not word (a webhook, a proxy) is kept as it is, with the object.
 */
export function describeForbidden(
  failures: readonly { readonly ref?: ObjectRef; readonly message: string; readonly consequence?: string }[],
  options: { readonly what?: string; readonly nothingChanged?: boolean; readonly advice?: ForbiddenAdvice } = {},
): string {
  const parsed = failures.map((f) => parseRefusal(f.message));
  const users = [...new Set(parsed.flatMap((p) => (p ? [p.user] : [])))];
  const what = [...new Set(parsed.flatMap((p) => (p ? [refused(p)] : [])))];
  const unworded = failures.filter((_, i) => !parsed[i]).map((f) => `${f.ref ? `${formatRef(f.ref)}: ` : ''}${f.message}`);
  const who = users.length ? users.map((u) => `"${u}"`).join(', ') : 'this context';
  const consequences = [...new Set(failures.flatMap((f) => (f.consequence ? [f.consequence] : [])))];
  const reasons = [...(what.length ? [`may not ${what.join('; ')}`] : []), ...unworded].join('; ') + consequences.map((c) => `, ${c}`).join('');
  const head = `${options.what ? `${options.what}: ` : ''}${options.nothingChanged ? 'nothing was changed — ' : ''}`;
  const many = what.length + unworded.length > 1;
  const advice = (options.advice ?? NEUTRAL_FORBIDDEN_ADVICE).moreRights;
  const sentence = `the cluster refused ${who} (403 Forbidden): ${reasons}. Ask a cluster administrator for ${many ? 'these permissions' : 'this permission'}, or ${advice}.`;
  return head ? `${head}${sentence}` : sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
