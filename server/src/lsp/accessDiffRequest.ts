import { ResponseError, type Connection } from 'vscode-languageserver';
import { accessDiff, AGENT_CONFIG_FILE, AGENT_TEMPLATE_FILE, agentFileVersions, changeLenses, diffMarkdown } from '../engine/api';
import { ACCESS_DIFF_REQUEST, type AccessDiffParams, type AccessDiffResult } from '../protocol';
import { onCustomRequest } from './customRequests';
import type { SettingsStore } from './settings';
import { projectSettings } from './simulationContext';

/**
 * `gitlabAgentConfig/accessDiff`: the client's "Compare CI Access with Branch…" — both versions of
 * the agent files in, the markdown view and the lenses out, through the engine call `agentcfg diff` makes.
 */
export class AccessDiffRequest {
  constructor(
    connection: Connection,
    private readonly settings: SettingsStore,
  ) {
    onCustomRequest(connection, ACCESS_DIFF_REQUEST, (params) => this.diff(params));
  }

  private async diff(params: AccessDiffParams): Promise<AccessDiffResult> {
    if (!Array.isArray(params?.files) || typeof params.base !== 'string' || typeof params.rootUri !== 'string') throw new ResponseError(-32602, 'accessDiff needs {base, rootUri, files}');
    // The agent configuration project, as for the files' own checks: the setting, else the repository's git remote.
    const settings = projectSettings(`${params.rootUri.replace(/\/+$/, '')}/.gitlab/agents/agent/config.yaml`, await this.settings.get());
    const { before, after, folderOf } = agentFileVersions(params.files);
    const changes = accessDiff({ before, after, settings });
    const files = (agent: string) => ({ config: `${folderOf(agent)}${AGENT_CONFIG_FILE}`, template: `${folderOf(agent)}${AGENT_TEMPLATE_FILE}`, pipeline: '.gitlab-ci.yml' });
    return {
      count: changes.length,
      markdown: diffMarkdown(changes, params.base, files),
      lenses: changeLenses(changes, params.base).map((l) => ({ path: files(l.agent)[l.file], line: l.line, title: l.title })),
    };
  }
}
