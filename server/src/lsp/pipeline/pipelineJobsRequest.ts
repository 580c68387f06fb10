import path from 'node:path';
import type { Connection } from 'vscode-languageserver';
import { classifyPath, kubeContextName } from '../../engine/api';
import { PIPELINE_JOBS_REQUEST, type PipelineJobsResult } from '../../protocol';
import { onCustomRequest } from '../customRequests';
import type { SettingsStore } from '../settings';
import { projectSettings } from '../simulationContext';
import { documentPath } from '../uriPaths';
import type { PipelineService } from './pipelineService';

/**
 * `gitlabAgentConfig/pipelineJobs`: the pipeline's access map seen from one agent — for each job
 * and situation where the job runs, the context this agent gives it (or why not). The results view
 * of an agent configuration shows it under the scenarios.
 */
export class PipelineJobsRequest {
  constructor(
    connection: Connection,
    private readonly settings: SettingsStore,
    private readonly pipelines: PipelineService,
  ) {
    onCustomRequest(connection, PIPELINE_JOBS_REQUEST, (params) => this.jobs(params.uri));
  }

  private async jobs(uri: string): Promise<PipelineJobsResult> {
    const settings = await this.settings.get();
    const kind = classifyPath(documentPath(uri));
    const beside = kind.kind === 'agentConfig' ? this.pipelines.besideAgent(uri, settings) : null;
    if (kind.kind !== 'agentConfig' || !beside) return { pipeline: null, project: this.pipelines.projectOf(null, settings), rows: [] };
    // This agent's context, named as the map names it (configuration project from the setting or git).
    const context = kubeContextName({ configProjectPath: projectSettings(uri, settings).configProjectPath, name: kind.agentName });
    const root = path.dirname(beside.file);
    const rows = beside.access.map.flatMap((row) => {
      const mine = row.contexts.find((c) => c.context === context);
      if (row.runs === false || !mine) return [];
      return [{
        job: row.job,
        scenario: row.scenario,
        runs: row.runs,
        when: row.when,
        environment: row.environment?.name ?? null,
        authorized: mine.authorized,
        namespace: mine.namespace,
        identity: mine.identity,
        reason: mine.reason ?? null,
        managedEnvironment: mine.managedEnvironment,
        line: row.location.range.start.line,
      }];
    });
    return { pipeline: path.relative(root, beside.file).replaceAll(path.sep, '/'), project: this.pipelines.projectOf(beside.file, settings), rows };
  }
}
