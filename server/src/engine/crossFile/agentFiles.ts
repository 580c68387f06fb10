/**
 * An agent's config.yaml and its environment_templates/default.yaml checked together (docs/gitlab-behaviour.md#managed-resources-flow):
 * the template is rendered for every active scenario and every authorization that turns on
 * resource management, and each file gets the problems that only the pair reveals.
 */
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { composeYaml } from '../yaml/boundedYaml';
import { allEntries, readCiAccess, type AccessEntry, type CiAccessModel } from '../access/model';
import { scenarioForEntry, type JobScenario } from '../access/scenarios';
import { nodeAtPath, nodeSpan, type ParsedYaml } from '../yaml/yamlDocument';
import type { EngineDiagnostic, Range } from '../diagnostics';
import { RenderBudget, renderGoTemplate, sourceSpanAt, type OutputSegment } from '../template/render/index';
import { renderEnvironmentTemplate } from '../template/renderTemplate';
import { buildTemplateData, type EnvironmentTemplateData } from '../template/templateVariables';
import { TextIndex } from '../text/textIndex';
import { dns1123LabelProblems } from '../vars/namespace';

/**
 * Ids a scenario cannot know. Long on purpose (8 and 7 digits, as on a large instance), so a name
 * that fits with them fits with real ids too.
 */
export const PLACEHOLDER_PROJECT_ID = 12345678;
export const PLACEHOLDER_AGENT_ID = 1234567;

/** Enough projects to catch a slug problem without rendering thousands of times per keystroke. */
const MAX_RENDERED_ENTRIES = 20;

/** What both files' checks read. */
export interface AgentFiles {
  /** config.yaml, parsed; null when the agent has none (an empty configuration, docs/gitlab-behaviour.md#config-file-location-and-parsing). */
  readonly config: ParsedYaml | null;
  /** environment_templates/default.yaml; null when absent (GitLab uses its built-in template, docs/gitlab-behaviour.md#built-in-default-template). */
  readonly templateText: string | null;
  readonly agentName: string;
  readonly scenarios: readonly JobScenario[];
  readonly defaultBranch: string;
  /** `ci_access` already read from `config` (the editor caches it per version). */
  readonly ciAccess?: CiAccessModel;
}

/** Groups that only `access_as: ci_job` puts the job in (docs/gitlab-behaviour.md#access_as-identities): a template binding them assumes it. */
const CI_JOB_GROUPS = /\bgitlab:(ci_job|project|project_env|project_env_tier|group|group_env_tier)\b/;

/**
 * On config.yaml: each authorization with `resource_management.enabled: true` whose `access_as` is not
 * `ci_job`, while the template in use (the built-in one, or default.yaml binding `gitlab:…` groups)
 * grants rights to the CI job's impersonated groups (docs/gitlab-behaviour.md#built-in-default-template).
 */
export function configCrossFileDiagnostics(files: AgentFiles): EngineDiagnostic[] {
  const config = files.config;
  if (!config?.doc || config.hasSyntaxErrors) return [];
  const usesCiJobGroups = files.templateText === null || CI_JOB_GROUPS.test(files.templateText);
  if (!usesCiJobGroups) return [];
  const model = files.ciAccess ?? readCiAccess(config.value);
  const out: EngineDiagnostic[] = [];
  for (const entry of allEntries(model)) {
    if (!entry.resourceManagement || entry.accessAs === 'ci_job') continue;
    const span = nodeSpan(nodeAtPath(config.doc, [...entry.path, 'resource_management', 'enabled'])?.node);
    if (!span) continue;
    const template = files.templateText === null ? "GitLab's built-in default template (there is no environment_templates/default.yaml)" : 'environment_templates/default.yaml';
    const fix = ciJobEdit(config, entry.path);
    out.push({
      range: config.index.range(span[0], span[1]),
      severity: 'warning',
      code: 'crossFile.resourceManagementNeedsCiJob',
      message:
        `Resource management is on for ${entry.id ?? 'the instance'}, but its access_as is ${entry.accessAs}. ${template} grants rights to the CI job's groups (gitlab:project_env:…), ` +
        'which only `access_as: ci_job` gives the job: the job could not use the namespace created for it. Set `access_as: {ci_job: {}}`.',
      ...(fix ? { data: { edit: fix } } : {}),
    });
  }
  return out;
}

/**
 * The edit that makes an entry `access_as: {ci_job: {}}`: the existing `access_as` value replaced
 * (block or flow), or the key inserted just before `resource_management` at its column, so block and
 * flow entries alike stay valid YAML.
 */
function ciJobEdit(config: ParsedYaml, entryPath: readonly (string | number)[]): { range: Range; newText: string } | null {
  const doc = config.doc!;
  const existing = nodeAtPath(doc, [...entryPath, 'access_as']);
  const value = nodeSpan(existing?.node);
  if (existing && value) {
    const block = isMap(existing.node) && !existing.node.flow;
    // A block mapping's span runs into the next line's indentation: keep that.
    const end = value[0] + config.text.slice(value[0], value[1]).trimEnd().length;
    return { range: config.index.range(value[0], end), newText: block ? 'ci_job: {}' : '{ci_job: {}}' };
  }
  const key = nodeSpan(nodeAtPath(doc, [...entryPath, 'resource_management'])?.pair?.key);
  const entry = nodeAtPath(doc, entryPath)?.node;
  if (!key || !isMap(entry)) return null;
  const column = config.index.positionAt(key[0]).character;
  const newText = entry.flow ? 'access_as: {ci_job: {}}, ' : `access_as: {ci_job: {}}\n${' '.repeat(column)}`;
  return { range: config.index.range(key[0], key[0]), newText };
}

/**
 * On default.yaml: render it as GitLab would for every active scenario with an environment and every
 * authorization that enables resource management, and report, at the template text that produced them,
 * namespaces that are not valid (docs/gitlab-behaviour.md#names) and rendering failures. Also notes when no authorization
 * enables resource management (GitLab then never renders the template).
 */
export function templateCrossFileDiagnostics(files: AgentFiles): EngineDiagnostic[] {
  const text = files.templateText;
  if (text === null) return [];
  const index = new TextIndex(text);
  const managed = managedEntries(files);
  const out: EngineDiagnostic[] = [];
  if (managed?.length === 0) {
    out.push({
      range: index.range(0, index.lineEnd(0)),
      severity: 'information',
      code: 'crossFile.templateUnused',
      message: 'No ci_access entry of config.yaml sets `resource_management: {enabled: true}`, so GitLab never renders this template.',
    });
  }
  const findings = new Findings();
  const checkedOutputs = new Map<string, NamespaceProblem[] | 'unreadable'>();
  // One budget for every rendering of this check: a runaway template stops the check, once.
  const budget = new RenderBudget();
  for (const { job, projectPath, data } of templateRenderings(files, managed ?? [])) {
    const label = `"${job.name}" (project ${projectPath})`;
    const rendered = renderGoTemplate(text, data, { budget });
    if (!rendered.ok) {
      // Syntax errors are the single-file check's; execution errors depend on the data.
      if (rendered.error.kind === 'execution') findings.add(rendered.error.range, 'error', 'crossFile.renderFailed', `Rendering fails: ${rendered.error.cause}`, label);
      if (rendered.error.kind === 'limit') {
        // One rendering past the bound on its own fails as `agentcfg render` and apply fail on it;
        // only a budget spent by many renderings together leaves the rest unchecked.
        const alone = renderGoTemplate(text, data, { budget: new RenderBudget() });
        if (!alone.ok && alone.error.kind === 'limit') findings.add(alone.error.range, 'error', 'crossFile.renderFailed', `Rendering stops: ${alone.error.cause}`, label);
        else findings.add(rendered.error.range, 'warning', 'crossFile.renderStopped', `Not checked for every scenario: ${rendered.error.cause}`, label);
        break;
      }
      continue;
    }
    // Most templates render the same text for many projects: parse each distinct output once.
    let problems = checkedOutputs.get(rendered.text);
    if (!problems) checkedOutputs.set(rendered.text, (problems = namespaceProblems(rendered.text, rendered.segments, index)));
    if (problems === 'unreadable') {
      // The rendered text is not YAML (a value that renders with `: ` or a quote, say): GitLab's
      // flow says where, mapped back to the template (renderTemplate.ts).
      const outcome = renderEnvironmentTemplate(text, data, { budget });
      if (!outcome.ok) for (const e of outcome.errors) findings.add(e.range, 'error', 'crossFile.renderFailed', e.message, label);
      continue;
    }
    for (const problem of problems) findings.add(problem.range, 'warning', 'crossFile.invalidNamespace', problem.message, label);
  }
  return [...out, ...findings.diagnostics()];
}

/** The entries of config.yaml that turn resource management on; null when there is no readable config. */
export function managedEntries(files: Pick<AgentFiles, 'config' | 'ciAccess'>): AccessEntry[] | null {
  const model = files.config && !files.config.hasSyntaxErrors ? (files.ciAccess ?? readCiAccess(files.config.value)) : null;
  return model ? allEntries(model).filter((e) => e.resourceManagement) : null;
}

/** One rendering of the template that GitLab would do: a job of one scenario, in one project. */
export interface TemplateRendering {
  readonly job: JobScenario;
  readonly projectPath: string;
  readonly data: EnvironmentTemplateData;
}

/**
 * The renderings the pair's checks and the template hover look at: each active scenario with an
 * environment (GitLab renders templates only for jobs with one,
 * docs/gitlab-behaviour.md#opting-in-to-managed-resources), for each distinct project of the
 * entries in `managed` (an example project when there are none), with placeholder ids.
 */
export function templateRenderings(files: Pick<AgentFiles, 'agentName' | 'scenarios' | 'defaultBranch'>, managed: readonly AccessEntry[]): TemplateRendering[] {
  const out: TemplateRendering[] = [];
  for (const entry of distinctProjects(managed.length ? managed : [null]).slice(0, MAX_RENDERED_ENTRIES)) {
    for (const job of files.scenarios) {
      if (!job.environmentName) continue;
      const scenario = scenarioForEntry(job, entry, files.defaultBranch);
      const data = buildTemplateData(scenario, { agentId: PLACEHOLDER_AGENT_ID, agentName: files.agentName, projectId: PLACEHOLDER_PROJECT_ID });
      if (data.ok) out.push({ job, projectPath: scenario.projectPath, data: data.data });
    }
  }
  return out;
}

/** One entry per project path: the template data depends only on the project (and the scenario). */
function distinctProjects(entries: readonly (AccessEntry | null)[]): (AccessEntry | null)[] {
  const seen = new Set<string>();
  return entries.filter((e) => {
    const key = e ? `${e.kind}:${e.id ?? ''}`.toLowerCase() : '';
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface NamespaceProblem {
  readonly range: Range;
  readonly message: string;
}

/** Namespace names and `metadata.namespace` values of the rendered objects that are not DNS-1123 labels. */
function namespaceProblems(rendered: string, segments: readonly OutputSegment[], index: TextIndex): NamespaceProblem[] | 'unreadable' {
  const composed = composeYaml(rendered, { version: '1.1', prettyErrors: false, uniqueKeys: false });
  if (!composed.ok) return 'unreadable';
  const doc = composed.docs[0];
  if (!doc) return [];
  if (doc.errors.length) return 'unreadable';
  const objects = doc.get('objects', true);
  if (!isSeq(objects)) return [];
  const out: NamespaceProblem[] = [];
  for (const item of objects.items) {
    if (!isMap(item)) continue;
    const kind = item.get('kind');
    const metadata = item.get('metadata', true);
    if (!isMap(metadata)) continue;
    const fields = kind === 'Namespace' ? [['name', 'The Namespace name'] as const] : [['namespace', `The namespace of this ${typeof kind === 'string' ? kind : 'object'}`] as const];
    for (const [field, what] of fields) {
      const node = metadata.get(field, true) as Node | undefined;
      if (!isScalar(node) || typeof node.value !== 'string' && typeof node.value !== 'number') continue;
      const value = String(node.value);
      const problems = dns1123LabelProblems(value);
      if (problems.length === 0) continue;
      const span = nodeSpan(node);
      if (!span) continue;
      out.push({
        range: templateRange(index, segments, span[0], span[1]),
        message: `${what} renders as "${value}", which is not a valid namespace name (DNS-1123 label): it ${problems.map((p) => p.message).join('; ')}. Use slugify, lower or replace, or .legacy_namespace.`,
      });
    }
  }
  return out;
}

/** The template text that produced `[start, end)` of the rendered output. */
function templateRange(index: TextIndex, segments: readonly OutputSegment[], start: number, end: number): Range {
  const first = sourceSpanAt(segments, start);
  const last = sourceSpanAt(segments, Math.max(start, end - 1)) ?? first;
  if (!first) return index.range(0, 0);
  return index.range(first.start, Math.max(first.end, last?.end ?? first.end));
}

/** How many distinct renderings of one place a message describes before it only counts the rest. */
const MAX_RENDERINGS_SHOWN = 3;

/**
 * Problems collected over many renderings: one diagnostic per place and code, naming the scenarios.
 * Scenarios that render the place differently (a namespace from `.environment.name`) get their own
 * sentence, so each value is shown with the scenarios that produce it.
 */
class Findings {
  private readonly byPlace = new Map<string, { range: Range; severity: 'error' | 'warning'; code: string; scenariosByMessage: Map<string, string[]>; scenarios: string[] }>();

  add(range: Range, severity: 'error' | 'warning', code: string, message: string, scenario: string): void {
    const key = `${code}|${range.start.line}:${range.start.character}-${range.end.line}:${range.end.character}`;
    let place = this.byPlace.get(key);
    if (!place) this.byPlace.set(key, (place = { range, severity, code, scenariosByMessage: new Map(), scenarios: [] }));
    if (!place.scenarios.includes(scenario)) place.scenarios.push(scenario);
    const scenarios = place.scenariosByMessage.get(message);
    if (!scenarios) place.scenariosByMessage.set(message, [scenario]);
    else if (!scenarios.includes(scenario)) scenarios.push(scenario);
  }

  diagnostics(): EngineDiagnostic[] {
    const assumed = `(ids assumed: project ${PLACEHOLDER_PROJECT_ID}, agent ${PLACEHOLDER_AGENT_ID})`;
    return [...this.byPlace.values()].map((f) => {
      const renderings = [...f.scenariosByMessage];
      const inScenarios = ([message, scenarios]: [string, string[]]) => `${message} — in scenario ${listed(scenarios)}`;
      let message: string;
      if (renderings.length === 1) {
        message = `${inScenarios(renderings[0]!)} ${assumed}.`;
      } else {
        const hidden = renderings.length - MAX_RENDERINGS_SHOWN;
        const lines = renderings.slice(0, MAX_RENDERINGS_SHOWN).map((r) => `${inScenarios(r)}.`);
        if (hidden > 0) lines.push(`${hidden} more rendering${hidden > 1 ? 's' : ''} of this place ${hidden > 1 ? 'have' : 'has'} problems too.`);
        // One line: the command line prints each diagnostic on one.
        message = `${lines.join(' ')} ${assumed}.`;
      }
      return { range: f.range, severity: f.severity, code: f.code, message, data: { scenarios: f.scenarios } };
    });
  }
}

function listed(scenarios: readonly string[]): string {
  return scenarios.slice(0, 3).join(', ') + (scenarios.length > 3 ? ` and ${scenarios.length - 3} more` : '');
}
