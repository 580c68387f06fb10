/**
 * Each editor feature contains its own failure: a handler that throws (a bug met on some input)
 * answers with its empty result, and the failure is logged once per feature and message in the
 * output channel. Without this the request fails, the editor shows an error notification for
 * every keystroke (a toast storm) and, for diagnostics, the file's other problems are lost.
 */
import type { Connection } from 'vscode-languageserver/node';

type Handler = (...args: never[]) => unknown;
type Registrar = (handler: Handler) => unknown;

/** The registration methods of the features this server provides, and what each answers on failure. */
const FEATURES: readonly { readonly path: readonly string[]; readonly empty: () => unknown }[] = [
  { path: ['onHover'], empty: () => null },
  { path: ['onCompletion'], empty: () => ({ isIncomplete: false, items: [] }) },
  { path: ['onCodeLens'], empty: () => [] },
  { path: ['onCodeAction'], empty: () => [] },
  { path: ['onDocumentSymbol'], empty: () => [] },
  { path: ['onFoldingRanges'], empty: () => [] },
  { path: ['onSelectionRanges'], empty: () => [] },
  { path: ['onDocumentLinks'], empty: () => [] },
  { path: ['languages', 'inlayHint', 'on'], empty: () => [] },
  { path: ['languages', 'semanticTokens', 'on'], empty: () => ({ data: [] }) },
  { path: ['languages', 'semanticTokens', 'onRange'], empty: () => ({ data: [] }) },
];

/** Wraps `handler` so that a throw or a rejection gives `empty()` and one log line per distinct failure. */
export function contained<H extends Handler>(feature: string, handler: H, empty: () => unknown, log: (message: string) => void, logged: Set<string>): H {
  const fail = (err: unknown): unknown => {
    const message = err instanceof Error ? err.message : String(err);
    const key = `${feature}\u0000${message}`;
    if (!logged.has(key)) {
      logged.add(key);
      log(`${feature} failed (answered with no result; logged once): ${err instanceof Error ? (err.stack ?? message) : message}`);
    }
    return empty();
  };
  return ((...args: never[]) => {
    try {
      const result = handler(...args);
      if (result && typeof (result as PromiseLike<unknown>).then === 'function') return Promise.resolve(result).catch(fail);
      return result;
    } catch (err) {
      return fail(err);
    }
  }) as H;
}

/**
 * Makes every feature handler registered on `connection` from now on contain its failures. Call it
 * before the features register.
 */
export function containFailures(connection: Connection, log: (message: string) => void): void {
  const logged = new Set<string>();
  for (const { path, empty } of FEATURES) {
    let owner = connection as unknown as Record<string, unknown>;
    for (const step of path.slice(0, -1)) owner = owner[step] as Record<string, unknown>;
    const name = path[path.length - 1];
    const register = owner[name] as Registrar;
    const feature = path.join('.');
    owner[name] = (handler: Handler) => register.call(owner, contained(feature, handler, empty, log, logged));
  }
}
