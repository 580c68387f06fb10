import { MarkupKind, type Connection, type Hover } from 'vscode-languageserver';
import { agentConfigSchemaFor, describeKey, pathAtOffset, schemaAtPath } from '../engine/api/editor';
import type { AccessPreviewService } from './cluster/accessPreview';
import type { DocumentModels } from './documentModels';
import type { PipelineFeature } from './pipeline/pipelineFeature';
import { isPipelineDocument } from './pipeline/pipelineService';
import type { SettingsStore } from './settings';
import type { SimulationService } from './simulation';
import { projectSettings } from './simulationContext';
import { entryPreview, entryTarget, expressionPreview, findEntry, namespacePreview, rbacRequests } from './simulationViews';
import type { TemplateHovers } from './templateHover';

/**
 * Hover: documentation of every key (from the schema), and on `namespace:`, `default_namespace:`,
 * `if:` and entry ids the simulated outcome per active scenario. On a job of `.gitlab-ci.yml`, its
 * cluster access per pipeline situation. In an environment template, what it renders (templateHover.ts).
 */
export class HoverFeature {
  constructor(
    connection: Connection,
    private readonly models: DocumentModels,
    private readonly settings: SettingsStore,
    private readonly simulations: SimulationService,
    private readonly pipelines: PipelineFeature,
    private readonly templates: TemplateHovers,
    /** The RBAC preview (asks the connected cluster); absent: hovers without it. */
    private readonly accessPreview?: AccessPreviewService,
  ) {
    connection.onHover((params) => this.hover(params.textDocument.uri, params.position));
  }

  private async hover(uri: string, position: { line: number; character: number }): Promise<Hover | null> {
    if (isPipelineDocument(uri)) return this.pipelines.hover(uri, position);
    const template = this.templates.hover(uri, position, projectSettings(uri, await this.settings.get()));
    if (template) return template;
    const config = this.models.agentConfig(uri);
    if (!config) return null;
    const { document, parsed, doc } = config;
    const at = pathAtOffset(doc, document.offsetAt(position));
    if (!at) return null;
    const sections: string[] = [];

    if (!parsed.hasSyntaxErrors) {
      const settings = await this.settings.get();
      const simulation = this.simulations.get(document, settings);
      const entry = findEntry(simulation, at.path);
      if (entry) {
        const target = entryTarget(entry, at.path);
        if (target.kind === 'ruleNamespace') sections.push(namespacePreview(entry, target.rule.number));
        else if (target.kind === 'defaultNamespace') sections.push(namespacePreview(entry, null));
        else if (target.kind === 'ruleIf') sections.push(expressionPreview(entry, target.rule, settings.defaultBranch));
        else if (target.kind === 'id') sections.push(entryPreview(entry));
        const rbac = this.accessPreview && rbacRequests(entry, at.path, target);
        const section = rbac?.length ? await this.accessPreview?.section(rbac) : undefined;
        if (section) sections.push(section);
      }
    }

    if (at.onKey) {
      const schema = schemaAtPath(at.path, agentConfigSchemaFor((await this.settings.get()).gitlabVersion));
      if (schema) sections.push(describeKey(String(at.path[at.path.length - 1]), schema));
    }
    if (!sections.length) return null;
    return {
      contents: { kind: MarkupKind.Markdown, value: sections.join('\n\n---\n\n') },
      range: { start: document.positionAt(at.span[0]), end: document.positionAt(at.span[1]) },
    };
  }
}
