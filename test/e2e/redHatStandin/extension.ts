/**
 * A stand-in for Red Hat YAML (redhat.vscode-yaml), whose .vsix cannot be obtained offline: the same
 * client setup — vscode-languageclient with Red Hat's document selector and settings sections — over
 * the real yaml-language-server 1.25.0. Built and packed by packStandin.ts for the coexistence e2e test.
 */
import type { ExtensionContext } from 'vscode';
import { LanguageClient, TransportKind } from 'vscode-languageclient/node';
import { RED_HAT_LANGUAGES } from '../../support/redHatYaml';

/** Absolute path of yaml-language-server's server module, injected at bundle time. */
declare const YAML_LANGUAGE_SERVER: string;

let client: LanguageClient | undefined;

export async function activate(context: ExtensionContext): Promise<void> {
  client = new LanguageClient(
    'yaml',
    'YAML Support (Red Hat stand-in)',
    { run: { module: YAML_LANGUAGE_SERVER, transport: TransportKind.ipc }, debug: { module: YAML_LANGUAGE_SERVER, transport: TransportKind.ipc } },
    {
      documentSelector: RED_HAT_LANGUAGES.map((language) => ({ language })),
      synchronize: { configurationSection: ['yaml', 'http', '[yaml]'] },
    },
  );
  context.subscriptions.push({ dispose: () => void client?.stop() });
  await client.start();
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
