/**
 * `@kubernetes/client-node` 1.x sends its requests through node-fetch 2, which parses each URL
 * with the legacy `url.parse()`. Node 24 and later warn about that call (DEP0169,
 * https://nodejs.org/api/deprecations.html#DEP0169) unless the caller lies under `node_modules`,
 * and in our bundles it does not: on Node 24 and 26 every cluster command, in `agentcfg` and in the
 * editor, printed "[DEP0169] DeprecationWarning: `url.parse()` behavior is not standardized…" to
 * stderr before its own output (node-fetch/node-fetch#1913 asks upstream for a fix in 2.x).
 *
 * Our own code never calls `url.parse()` (eslint.config.mjs forbids it), so that one warning is
 * dropped; every other warning is emitted as before. Called by the entry of each bundle that holds
 * the Kubernetes client, before any request.
 */
export function dropBundledUrlParseWarning(): void {
  if (dropping) return;
  dropping = true;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: NodeJS.Process, warning: string | Error, ...rest: unknown[]): void {
    if (warningCode(rest) === URL_PARSE_DEPRECATION) return;
    (emitWarning as (warning: string | Error, ...rest: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
}

let dropping = false;
const URL_PARSE_DEPRECATION = 'DEP0169';

/** The code of a warning, from the arguments after the warning in either form `process.emitWarning` takes: (type, code) or ({ code }). */
function warningCode(rest: readonly unknown[]): unknown {
  const [second, third] = rest;
  if (typeof second === 'object' && second !== null) return (second as { code?: unknown }).code;
  return typeof second === 'string' ? third : undefined;
}
