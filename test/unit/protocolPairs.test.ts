// One typed protocol: every custom request is declared once as
// a typed pair, method → params and result (server/src/protocol/index.ts CustomRequests; notifications:
// CustomNotifications), and both sides go through the helpers typed by it — the client's
// client/src/customRequests.ts, the server's server/src/lsp/customRequests.ts — never through a raw
// sendRequest<Result>(method) whose result type each call site chooses.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { LanguageClient } from 'vscode-languageclient/node';
import { sendCustomRequest } from '../../client/src/customRequests';
import { SCENARIOS_REQUEST, SIMULATE_REQUEST, type ScenariosResult } from '../../server/src/protocol';

const root = path.resolve(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => path.join(dir, f));
}

/** The names of the string constants a protocol module exports whose name ends with `suffix`. */
function declaredConstants(file: string, suffix: string): string[] {
  return [...read(file).matchAll(new RegExp(`^export const (\\w+${suffix}) = '`, 'gm'))].map((m) => m[1]);
}

/** The keys of an interface in a protocol module (`[NAME]: …` lines). */
function interfaceKeys(file: string, name: string): string[] {
  const body = new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`).exec(read(file))?.[1] ?? '';
  return [...body.matchAll(/^\s*\[(\w+)\]:/gm)].map((m) => m[1]);
}

test('every custom request and notification has its typed pair', () => {
  assert.deepEqual(interfaceKeys('server/src/protocol/index.ts', 'CustomRequests').sort(), declaredConstants('server/src/protocol/index.ts', '_REQUEST').sort());
  assert.deepEqual(interfaceKeys('server/src/protocol/cluster.ts', 'CustomNotifications').sort(), declaredConstants('server/src/protocol/cluster.ts', '_NOTIFICATION').sort());
  assert.ok(interfaceKeys('server/src/protocol/index.ts', 'CustomRequests').length >= 5);
});

test('client and server send and answer custom messages only through the typed helpers', () => {
  const helpers = new Set(['client/src/customRequests.ts', 'server/src/lsp/customRequests.ts']);
  // A raw call names a protocol constant (…_REQUEST, …_NOTIFICATION) as its method.
  const raw = /\b(?:sendRequest|sendNotification|onRequest|onNotification)\s*(?:<[^>]*>)?\(\s*\w+_(?:REQUEST|NOTIFICATION)\b/;
  const offending = [...sources('client/src'), ...sources('server/src')].filter((file) => !helpers.has(file.replaceAll(path.sep, '/')) && raw.test(read(file)));
  assert.deepEqual(offending, []);
});

// Checked by the type checker (`tsc -p .` covers the tests), never run: calls that drift from the
// declaration must not compile, or these @ts-expect-error lines fail the type check.
void ((client: LanguageClient) => {
  // @ts-expect-error the simulate request takes {uri: string}
  void sendCustomRequest(client, SIMULATE_REQUEST, { uri: 1 });
  // @ts-expect-error the scenarios request takes no params
  void sendCustomRequest(client, SCENARIOS_REQUEST, { uri: 'file:///x' });
  // @ts-expect-error the simulate request answers a SimulateResult, not a ScenariosResult
  const answer: Promise<ScenariosResult> = sendCustomRequest(client, SIMULATE_REQUEST, { uri: 'file:///x' });
  return answer;
});
