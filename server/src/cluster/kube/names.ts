/**
 * Kubernetes object-name rules, as the API server applies them, so that a name given on the command
 * line (or read from an inventory) is refused before it reaches a request path.
 *
 * Sources: `IsDNS1123Label` and `IsDNS1123Subdomain` in k8s.io/apimachinery/pkg/util/validation/validation.go,
 * and `IsValidPathSegmentName` in k8s.io/apimachinery/pkg/api/validation/path/name.go (the rule every
 * object name must pass because it becomes a segment of the request URL).
 */

/** `DNS1123LabelMaxLength`. */
export const DNS1123_LABEL_MAX_LENGTH = 63;
/** `DNS1123SubdomainMaxLength`. */
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;

const DNS1123_LABEL_FORMAT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FORMAT}$`);
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_LABEL_FORMAT}(\\.${DNS1123_LABEL_FORMAT})*$`);

/**
 * Why `name` may not be a path segment (`IsValidPathSegmentName`: not `.` or `..`, no `/` or `%`), or
 * undefined when it may.
 */
export function pathSegmentProblem(name: string): string | undefined {
  if (name === '.' || name === '..') return "may not be '.' or '..'";
  const contained = ['/', '%'].filter((character) => name.includes(character));
  if (contained.length > 0) return contained.map((character) => `may not contain '${character}'`).join(' and ');
  return undefined;
}

/**
 * Why `name` is not a DNS-1123 label (namespaces, workspace names: at most 63 characters,
 * `[a-z0-9]([-a-z0-9]*[a-z0-9])?`), or undefined when it is one.
 */
export function dnsLabelProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  const path = pathSegmentProblem(name);
  if (path !== undefined) return path;
  if (name.length > DNS1123_LABEL_MAX_LENGTH) {
    return `must be no more than ${DNS1123_LABEL_MAX_LENGTH} characters (is ${name.length})`;
  }
  if (!DNS1123_LABEL.test(name)) {
    return "must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
  }
  return undefined;
}

/**
 * Why `name` is not a DNS-1123 subdomain (most object names: at most 253 characters, DNS-1123 labels
 * joined by `.`), or undefined when it is one. As in Kubernetes, only the whole name's length is
 * limited, not each dot-separated part's.
 */
export function dnsSubdomainProblem(name: string): string | undefined {
  if (name.length === 0) return 'must not be empty';
  const path = pathSegmentProblem(name);
  if (path !== undefined) return path;
  if (name.length > DNS1123_SUBDOMAIN_MAX_LENGTH) {
    return `must be no more than ${DNS1123_SUBDOMAIN_MAX_LENGTH} characters (is ${name.length})`;
  }
  if (!DNS1123_SUBDOMAIN.test(name)) {
    return "must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
  }
  return undefined;
}
