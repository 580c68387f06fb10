/**
 * The workspace folders the id scan reads (completion of ids used elsewhere): only those the server
 * can read as local paths, so a folder it cannot read never fails `initialize`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { workspaceFolderPaths } from '../../../server/src/lsp/workspaceIds';

test('file folders become paths; other schemes are left out', () => {
  assert.deepEqual(workspaceFolderPaths({ workspaceFolders: [{ uri: 'file:///home/me/repo' }, { uri: 'vscode-vfs://github/acme/repo' }] }), ['/home/me/repo']);
  assert.deepEqual(workspaceFolderPaths({ workspaceFolders: [], rootUri: 'file:///srv/repo' }), ['/srv/repo']);
  assert.deepEqual(workspaceFolderPaths({ workspaceFolders: null, rootUri: null }), []);
});

test('a file URI with a host (a UNC share, not a local path off Windows) is left out instead of throwing', { skip: process.platform === 'win32' }, () => {
  assert.deepEqual(workspaceFolderPaths({ workspaceFolders: [{ uri: 'file://fileserver/share/repo' }, { uri: 'file:///home/me/repo' }] }), ['/home/me/repo']);
});
