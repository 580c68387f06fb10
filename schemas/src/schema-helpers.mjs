// Building blocks shared by the schema generators (agent config, environment template): the
// documentation triple every key carries and the exact string formats GitLab and Kubernetes require.

/**
 * A key's documentation: `d` = what it does, `since` = first GitLab version, `def` = default,
 * `extra` = one more paragraph. Emits `description` (plain, for any JSON Schema tool),
 * `markdownDescription` (for hover in VS Code and yaml-language-server), `default` and `x-since`.
 */
export function doc(d, { since, def, extra } = {}) {
  const lines = [d];
  if (def !== undefined) lines.push(`Default: \`${JSON.stringify(def)}\`.`);
  if (since) lines.push(`Since GitLab ${since}.`);
  if (extra) lines.push(extra);
  // `default` too, so any JSON Schema tool (completion in yaml-language-server) knows it.
  return { description: lines.join(' '), markdownDescription: lines.join('\n\n'), ...(def !== undefined ? { default: def } : {}), ...(since ? { 'x-since': since } : {}) };
}

/** A closed mapping (protojson rejects unknown fields, docs/gitlab-behaviour.md#config-file-location-and-parsing). */
export const obj = (properties, more = {}) => ({ type: 'object', additionalProperties: false, properties, ...more });

export const str = (d, opts, more = {}) => ({ type: 'string', ...doc(d, opts), ...more });

export const bool = (d, opts) => ({ type: 'boolean', ...doc(d, opts) });

/** A list of non-empty strings (PGV `min_len: 1` on every item). */
export const strings = (d, opts, itemDoc = 'One value.') => ({ type: 'array', items: { type: 'string', minLength: 1, ...doc(itemDoc) }, ...doc(d, opts) });

// docs/gitlab-behaviour.md#names: DNS-1123 label and subdomain, exactly as apimachinery's validation.go writes them.
const LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
export const DNS1123_LABEL = `^${LABEL}$`;
export const DNS1123_SUBDOMAIN = `^${LABEL}(\\.${LABEL})*$`;

export const label = (d, opts) => ({ type: 'string', maxLength: 63, pattern: DNS1123_LABEL, 'x-format': 'dns1123Label', ...doc(d, opts) });
export const subdomain = (d, opts) => ({ type: 'string', maxLength: 253, pattern: DNS1123_SUBDOMAIN, 'x-format': 'dns1123Subdomain', ...doc(d, opts) });

// docs/gitlab-behaviour.md#config-file-location-and-parsing: google.protobuf.Duration in protojson is a string of seconds with an `s` suffix.
export const duration = (d, opts) => ({
  type: 'string',
  pattern: '^-?[0-9]+(\\.[0-9]{1,9})?s$',
  'x-format': 'duration',
  ...doc(d, { ...opts, extra: 'A protobuf duration: seconds with an `s` suffix, for example `"3600s"` (not `1h`).' }),
});

// CIDRs: an IPv4 or IPv6 address and a prefix length valid for its family (RFC 4632, RFC 4291 docs/gitlab-behaviour.md#opting-in-to-managed-resources).
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = `${OCTET}(\\.${OCTET}){3}`;
const H16 = '[0-9a-fA-F]{1,4}';
const LS32 = `(${H16}:${H16}|${IPV4})`;
/** RFC 3986's IPv6address production: the eight ways `::` can stand for zero groups. */
const IPV6 = [
  `(${H16}:){6}${LS32}`,
  `::(${H16}:){5}${LS32}`,
  `(${H16})?::(${H16}:){4}${LS32}`,
  `((${H16}:){0,1}${H16})?::(${H16}:){3}${LS32}`,
  `((${H16}:){0,2}${H16})?::(${H16}:){2}${LS32}`,
  `((${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `((${H16}:){0,4}${H16})?::${LS32}`,
  `((${H16}:){0,5}${H16})?::${H16}`,
  `((${H16}:){0,6}${H16})?::`,
]
  .map((alternative) => `(${alternative})`)
  .join('|');
export const CIDR = `^((${IPV4})/(3[0-2]|[12]?[0-9])|(${IPV6})/(12[0-8]|1[01][0-9]|[1-9]?[0-9]))$`;

// Kubernetes resource.Quantity (apimachinery quantity.go): a signed decimal, then a binary (Ki…Ei),
// decimal (n u m k M G T P E) or exponent suffix.
export const QUANTITY = '^[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+|[numkMGTPE]|[KMGTPE]i)?$';

/**
 * A removed key: always an error where it stands, with the GitLab version that removed it.
 * `advice`: what to do instead, where the successor is not a key of the file.
 */
export const removed = (since, message, { replacement, renameTo, advice } = {}) => ({
  'x-removed': { since, message, ...(replacement ? { replacement } : {}), ...(renameTo ? { renameTo } : {}), ...(advice ? { advice } : {}) },
  deprecationMessage: message,
  description: message,
  markdownDescription: message,
});
