import type { CodeLens, Connection } from 'vscode-languageserver';
import { nodeAtPath, nodeSpan } from '../engine/config/yamlDocument';
import { SHOW_SIMULATION_COMMAND } from '../protocol';
import type { DocumentModels } from './documentModels';
import type { PipelineFeature } from './pipeline/pipelineFeature';
import { isPipelineDocument } from './pipeline/pipelineService';
import type { SettingsStore } from './settings';
import type { SimulationService } from './simulation';

/**
 * A code lens above each ci_access entry: the outcome over the active scenarios; it opens the
 * simulation. On `.gitlab-ci.yml`, the pipeline's lens above each job.
 */
export class CodeLensFeature {
  constructor(
    connection: Connection,
    private readonly models: DocumentModels,
    private readonly settings: SettingsStore,
    private readonly simulations: SimulationService,
    private readonly pipelines: PipelineFeature,
  ) {
    connection.onCodeLens((params) => this.lenses(params.textDocument.uri));
  }

  private async lenses(uri: string): Promise<CodeLens[]> {
    if (isPipelineDocument(uri)) return this.pipelines.lenses(uri);
    const config = this.models.agentConfig(uri);
    if (!config || config.parsed.hasSyntaxErrors) return [];
    const { document, parsed, doc } = config;
    const simulation = this.simulations.get(document, await this.settings.get());
    return simulation.entries.flatMap(({ entry, outcomes }) => {
      const span = nodeSpan(nodeAtPath(doc, entry.path)?.node);
      if (!span) return [];
      const line = parsed.index.positionAt(span[0]).line;
      const allowed = outcomes.filter((o) => o.outcome.authorized);
      const namespaces = [...new Set(allowed.map((o) => o.outcome.namespace).filter((n): n is string => n !== null))];
      const problems = outcomes.reduce((n, o) => n + o.outcome.problems.length, 0);
      const title = `CI access: ${allowed.length}/${outcomes.length} scenarios authorized${namespaces.length ? ` · ${namespaces.slice(0, 3).join(', ')}${namespaces.length > 3 ? ', …' : ''}` : ''}${problems ? ` · ⚠ ${problems} problem(s)` : ''}`;
      return [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, command: { title, command: SHOW_SIMULATION_COMMAND, arguments: [uri, line] } }];
    });
  }
}
