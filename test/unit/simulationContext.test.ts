// The simulation context of a document comes from its URI; URIs that are not local paths here (a
// `file://host/share` URI off Windows, another scheme) must still give the agent's name, not throw
// inside a hover or diagnostics request.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { simulationContext } from '../../server/src/lsp/simulationContext';
import { DEFAULT_SETTINGS } from '../../server/src/protocol';

const settings = { ...DEFAULT_SETTINGS, configProjectPath: 'acme/agents' };

test('a file URI on another host gives the agent name from its path', () => {
  const context = simulationContext('file://fileserver/share/repo/.gitlab/agents/prod/config.yaml', settings);
  assert.equal(context.agent.name, 'prod');
  assert.equal(context.agent.configProjectPath, 'acme/agents');
});

test('a URI of another scheme gives the agent name from its path', () => {
  const context = simulationContext('vscode-vfs://github/acme/agents/.gitlab/agents/staging/config.yaml', settings);
  assert.equal(context.agent.name, 'staging');
});
