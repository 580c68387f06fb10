import { stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connection, DocumentLink } from 'vscode-languageserver';
import { isSeq, type Node } from 'yaml';
import { pairOfKey, valueOfKey } from '../engine/api/editor';
import type { DocumentModels } from './documentModels';
import { localFilePath } from './uriPaths';

/** Where GitLab looks for an agent's template: always the one named `default` (docs/gitlab-behaviour.md#environment-template-file). */
const TEMPLATE_PATH = ['environment_templates', 'default.yaml'] as const;

/**
 * Document links from each `resource_management` key of `ci_access` to the agent's
 * `environment_templates/default.yaml`. When the file does not exist GitLab falls back to its
 * built-in default template (docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#built-in-default-template): the tooltip says so, and the link still targets the
 * path, where following it lets the user create the file.
 */
export class DocumentLinksFeature {
  constructor(
    connection: Connection,
    private readonly models: DocumentModels,
  ) {
    connection.onDocumentLinks((params) => this.links(params.textDocument.uri));
  }

  private async links(uri: string): Promise<DocumentLink[]> {
    const config = this.models.agentConfig(uri);
    const file = localFilePath(uri);
    if (!config || file === null) return [];
    const keys = resourceManagementKeys(config.doc.contents);
    if (!keys.length) return [];
    const template = path.join(path.dirname(file), ...TEMPLATE_PATH);
    const exists = (await stat(template).catch(() => null))?.isFile() ?? false;
    const target = pathToFileURL(template).href;
    const tooltip = exists
      ? 'Open environment_templates/default.yaml, the template GitLab renders for this agent'
      : 'No environment_templates/default.yaml: GitLab uses its built-in default template (a Namespace and a RoleBinding for the job). Follow the link to create the file.';
    return keys.map((key) => ({
      range: { start: config.document.positionAt(key.range![0]), end: config.document.positionAt(key.range![1]) },
      target,
      tooltip,
    }));
  }
}

/** The `resource_management` keys of `ci_access.projects[]`, `ci_access.groups[]` and `ci_access.instance`. */
function resourceManagementKeys(root: unknown): Node[] {
  const ciAccess = valueOfKey(root, 'ci_access');
  const entries: unknown[] = [];
  for (const list of ['projects', 'groups']) {
    const seq = valueOfKey(ciAccess, list);
    if (isSeq(seq)) entries.push(...seq.items);
  }
  entries.push(valueOfKey(ciAccess, 'instance'));
  const out: Node[] = [];
  for (const entry of entries) {
    const pair = pairOfKey(entry, 'resource_management');
    const key = pair?.key as Node | null | undefined;
    if (key?.range) out.push(key);
  }
  return out;
}
