// Coexistence with Red Hat YAML (redhat.vscode-yaml), whose server is yaml-language-server.
//
// The Red Hat extension cannot be installed here: no npm package carries its .vsix (npm has no
// `vscode-yaml`; the marketplace is unreachable). So this proves the mechanism at the protocol level
// with the real yaml-language-server 1.25.0 (devDependency); test/e2e/coexistence.test.ts shows it in
// code-server with a stand-in that has Red Hat's client setup:
// 1. our package.json gives agent configs and templates their own language id;
// 2. yaml-language-server scopes itself by language id, and the ids it names (over the wire, in its
//    formatter registration — the same list Red Hat's client uses as its document selector) do not
//    include ours, so a VS Code with both extensions routes these files only to us;
// 3. without that routing the duplicates are real: fed the same config.yaml as `yaml`,
//    yaml-language-server configured with our schema reports the same problem we report.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { PublishDiagnosticsParams, Registration } from 'vscode-languageserver-protocol';
import { DOCUMENT_SELECTOR, LANGUAGE_ID } from '../../client/src/documentSelector';
import { agentConfigUri, LspTestClient, repoRoot } from '../support/lspClient';
import { rangeOf } from '../support/ranges';
import { RED_HAT_LANGUAGES } from '../support/redHatYaml';

const packageJson = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: { languages: { id: string; filenamePatterns: string[] }[]; grammars: { language: string; path: string }[] };
};

/** yaml-language-server over stdio, configured as a Red Hat YAML user would point it at our schema. */
class YamlLanguageServer {
  readonly registrations: Registration[] = [];
  private readonly waiters: { uri: string; resolve: (p: PublishDiagnosticsParams) => void }[] = [];

  private constructor(
    readonly child: ChildProcess,
    readonly connection: MessageConnection,
  ) {}

  static async start(): Promise<YamlLanguageServer> {
    const child = spawn(process.execPath, [path.join(repoRoot, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const server = new YamlLanguageServer(child, connection);
    const schemaUri = pathToFileURL(path.join(repoRoot, 'schemas', 'agent-config.schema.json')).href;
    const settings = { yaml: { schemas: { [schemaUri]: '**/.gitlab/agents/*/config.yaml' }, validate: true, format: { enable: true }, schemaStore: { enable: false }, kubernetesCRDStore: { enable: false } }, http: {}, '[yaml]': {} } as Record<string, unknown>;
    connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      const waiter = server.waiters.find((w) => w.uri === p.uri);
      if (waiter) {
        server.waiters.splice(server.waiters.indexOf(waiter), 1);
        waiter.resolve(p);
      }
    });
    connection.onNotification(() => undefined);
    connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) => params.items.map((i) => (i.section ? (settings[i.section] ?? null) : settings)));
    connection.onRequest('client/registerCapability', (params: { registrations: Registration[] }) => {
      server.registrations.push(...params.registrations);
      return null;
    });
    connection.onRequest(() => null);
    connection.listen();
    await connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: pathToFileURL(repoRoot).href,
      capabilities: {
        workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } },
        textDocument: { formatting: { dynamicRegistration: true }, publishDiagnostics: { versionSupport: true } },
      },
    });
    await connection.sendNotification('initialized', {});
    await connection.sendNotification('workspace/didChangeConfiguration', { settings });
    return server;
  }

  open(uri: string, text: string): Promise<PublishDiagnosticsParams> {
    const published = new Promise<PublishDiagnosticsParams>((resolve) => this.waiters.push({ uri, resolve }));
    void this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'yaml', version: 1, text } });
    return published;
  }

  /** Waits until the server has registered its formatter (it does so once the settings are read). */
  async formatterRegistration(): Promise<Registration> {
    for (let attempt = 0; attempt < 500; attempt++) {
      const found = this.registrations.find((r) => r.method === 'textDocument/formatting');
      if (found) return found;
      // A request round trip lets pending server → client requests (the registration) arrive.
      await this.connection.sendRequest('textDocument/hover', { textDocument: { uri: 'file:///nothing.yaml' }, position: { line: 0, character: 0 } }).catch(() => null);
    }
    throw new Error(`yaml-language-server registered no formatter; it registered: ${this.registrations.map((r) => r.method).join(', ')}`);
  }

  async stop(): Promise<void> {
    await this.connection.sendRequest('shutdown').catch(() => undefined);
    await this.connection.sendNotification('exit').catch(() => undefined);
    this.connection.dispose();
    if (this.child.exitCode === null) this.child.kill();
  }
}

describe('coexistence with Red Hat YAML (yaml-language-server 1.25.0)', () => {
  let peer: YamlLanguageServer;
  let ours: LspTestClient;
  before(async () => {
    [peer, ours] = await Promise.all([YamlLanguageServer.start(), LspTestClient.start()]);
  });
  after(async () => {
    await Promise.all([peer?.stop(), ours?.stop()]);
  });

  test('agent configs and environment templates get our own language id, with the YAML grammar', () => {
    const language = packageJson.contributes.languages.find((l) => l.id === LANGUAGE_ID);
    assert.ok(language, 'contributes.languages declares the id');
    assert.deepEqual(language.filenamePatterns, ['**/.gitlab/agents/*/config.yaml', '**/.gitlab/agents/*/config.yml', '**/.gitlab/agents/*/environment_templates/*.yaml', '**/.gitlab/agents/*/environment_templates/*.yml']);
    const grammar = packageJson.contributes.grammars.find((g) => g.language === LANGUAGE_ID);
    assert.ok(grammar);
    assert.match(readFileSync(path.join(repoRoot, grammar.path), 'utf8'), /"include": "source\.yaml"/);
    assert.ok(packageJson.activationEvents.includes(`onLanguage:${LANGUAGE_ID}`));
    assert.ok(!packageJson.activationEvents.includes('onLanguage:yaml'), 'other YAML files do not activate the extension');
    assert.ok(DOCUMENT_SELECTOR.some((f) => typeof f === 'object' && f.language === LANGUAGE_ID), 'our client serves the id');
  });

  test("yaml-language-server names the language ids it serves, and ours is not one of them", async () => {
    const registration = await peer.formatterRegistration();
    const selector = (registration.registerOptions as { documentSelector: { language?: string; pattern?: string }[] }).documentSelector;
    assert.ok(selector.every((f) => f.pattern === undefined && typeof f.language === 'string'), 'language ids only: no file pattern catches our files');
    assert.deepEqual(selector.map((f) => f.language), RED_HAT_LANGUAGES);
    assert.ok(!RED_HAT_LANGUAGES.includes(LANGUAGE_ID));
  });

  test('the duplicates the language id avoids are real: as `yaml`, the peer reports what we report', async () => {
    const uri = agentConfigUri('coexistence-agent');
    const text = 'ci_access:\n  projects:\n    - id: acme/app\n      defualt_namespace: apps\n';
    const [theirs, mine] = await Promise.all([peer.open(uri, text), ours.open(uri, text)]);
    const key = rangeOf(text, 'defualt_namespace');
    assert.ok(theirs.diagnostics.some((d) => d.range.start.line === key.start.line), `yaml-language-server flags the key: ${JSON.stringify(theirs.diagnostics)}`);
    assert.deepEqual(mine.diagnostics.map((d) => [d.code, d.range]), [['schema.unknownKey', key]]);
  });
});
