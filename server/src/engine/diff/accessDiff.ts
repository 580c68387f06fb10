/**
 * The access diff: what a change to agent configurations (and their environment templates) does
 * to CI/CD jobs — for every project × scenario, the outcome before and after, and what changed.
 * Reviewers see a YAML diff; this says "the feature branch now gets production".
 */
import { candidateAuthorizations, type AgentRef, type Candidate } from '../access/authorize';
import { kubeContextName } from '../access/identity';
import { allEntries, readCiAccess, type AccessEntry, type CiAccessModel, type DataPath } from '../access/model';
import { scenarioForEntry, type JobScenario } from '../access/scenarios';
import { simulateAccess, viaLabel, type AccessOutcome, type SimulationOptions } from '../access/simulate';
import { nodeAtPath, nodeSpan, parseYaml, type ParsedYaml } from '../yaml/yamlDocument';
import { activeScenarios, scenarioContext, type ProjectSettings } from '../settings/projectSettings';
import { guessEnvironmentTier } from '../vars/environment-tier';
import type { Scenario } from '../vars/scenario';
import { pipelineDiff, type KeyedAgent, type PipelineVersion } from './pipelineDiff';
import { TemplateObjects } from './templateObjects';
import type { AccessChange, AccessState, ChangeKind, ChangeLocation, ChangeSeverity } from './accessChange';

/** One agent's configuration in one version. */
export interface AgentConfigVersion {
  /** The text of `.gitlab/agents/<agent>/config.yaml`. */
  readonly text: string;
  /** The agent's name (its folder); default: the key the config is listed under. */
  readonly name?: string;
  /** Full path of the agent's configuration project; default `settings.configProjectPath`. */
  readonly configProjectPath?: string;
  /** `text` already parsed (the editor keeps one parse per document version): parsing is most of a large diff's time. */
  readonly parsed?: ParsedYaml;
}

/** The agent files of one version, by agent key (usually the agent's name). */
export interface AccessDiffVersion {
  /** An agent missing here has no config.yaml in this version: an empty configuration (docs/gitlab-behaviour.md#config-file-location-and-parsing). */
  readonly configs: Readonly<Record<string, AgentConfigVersion>>;
  /** `environment_templates/default.yaml` by agent key; missing: GitLab's built-in template (docs/gitlab-behaviour.md#environment-template-file). */
  readonly templates?: Readonly<Record<string, string>>;
}

export interface AccessDiffInput {
  readonly before: AccessDiffVersion;
  readonly after: AccessDiffVersion;
  readonly settings: ProjectSettings;
  /** Situations to compare instead of the active ones (`activeScenarios(settings)`). */
  readonly scenarios?: readonly JobScenario[];
  /** Projects to compare besides those the entries of either version name (a pipeline's project, say). */
  readonly projects?: readonly string[];
  readonly options?: Pick<SimulationOptions, 'instanceLevel'>;
  /**
   * `.gitlab-ci.yml` of the project the agents serve: each job in each pipeline situation becomes a
   * scenario, its contexts compared before and after. `before` defaults to `after` (the pipeline did not change).
   */
  readonly pipeline?: { readonly before?: PipelineVersion; readonly after: PipelineVersion };
}

const KIND_ORDER: readonly ChangeKind[] = ['gained', 'lost', 'identity', 'namespace', 'objects', 'via'];
const SEVERITY_ORDER: readonly ChangeSeverity[] = ['critical', 'high', 'medium', 'low'];

/** One agent in one version, read once. */
interface AgentVersion {
  readonly agent: AgentRef;
  readonly parsed: ParsedYaml | null;
  readonly model: CiAccessModel;
  readonly template: string | null;
  readonly text: string | null;
}

const EMPTY_MODEL: CiAccessModel = readCiAccess({});

/**
 * The access diff between two versions: for each agent of either version, each project an entry of
 * either version names (a group entry stands for an example project inside the group, as in the
 * simulation table) plus `projects`, and each scenario, the outcome before and after when they
 * differ. Ordered by severity, then kind, agent, project and scenario order; empty when nothing
 * changes. Only entries that decide differently are simulated, so a large config with a small change is cheap.
 */
export function accessDiff(input: AccessDiffInput): AccessChange[] {
  const scenarios = input.scenarios ?? activeScenarios(input.settings);
  const templates = new TemplateObjects();
  const changes: { change: AccessChange; order: number }[] = [];
  const keys = [...new Set([...Object.keys(input.before.configs), ...Object.keys(input.after.configs), ...Object.keys(input.before.templates ?? {}), ...Object.keys(input.after.templates ?? {})])].sort();
  const versions = keys.map((key) => ({ key, before: agentVersion(input.before, key, input.settings), after: agentVersion(input.after, key, input.settings) }));
  for (const { key, before, after } of versions) {
    if (before.text === after.text && before.template === after.template && before.agent.configProjectPath === after.agent.configProjectPath && before.agent.name === after.agent.name) continue;
    const options: SimulationOptions = { ...scenarioContext(input.settings, after.agent.name).options, ...input.options };
    const templateChanged = before.template !== after.template;
    for (const project of projectsOf(before.model, after.model, scenarios, input.projects ?? [])) {
      const job = { projectPath: project, protectedRef: false };
      const winnerBefore = candidateAuthorizations(before.model, before.agent, job, options)[0];
      const winnerAfter = candidateAuthorizations(after.model, after.agent, job, options)[0];
      const sameWinner = sameAgent(before.agent, after.agent) && sameCandidate(winnerBefore, winnerAfter);
      // The same deciding entry decides the same way; only the template can still change what a managed job gets.
      if (sameWinner && !(templateChanged && winnerAfter?.entry?.resourceManagement)) continue;
      scenarios.forEach((jobScenario, index) => {
        if (jobScenario.projectPath !== undefined && jobScenario.projectPath.toLowerCase() !== project.toLowerCase()) return;
        const scenario: Scenario = { ...scenarioForEntry(jobScenario, null, input.settings.defaultBranch), projectPath: project };
        const outcomeBefore = simulateAccess(before.model, before.agent, scenario, options);
        const outcomeAfter = sameWinner ? outcomeBefore : simulateAccess(after.model, after.agent, scenario, options);
        const change = compare(key, after, project, jobScenario, outcomeBefore, outcomeAfter, () => state(outcomeBefore, before, scenario, templates), () => state(outcomeAfter, after, scenario, templates), before);
        if (change) changes.push({ change, order: index });
      });
    }
  }
  if (input.pipeline) {
    const pipeline = { before: input.pipeline.before ?? input.pipeline.after, after: input.pipeline.after };
    const unchanged = pipeline.before.text === pipeline.after.text && versions.every((v) => v.before.text === v.after.text && sameAgent(v.before.agent, v.after.agent));
    // An agent without config.yaml in a version has an empty configuration there, as in the entries' diff.
    const keyed = (side: 'before' | 'after'): KeyedAgent[] => versions.map((v) => ({ key: v.key, agent: v[side].agent, ciAccess: v[side].model }));
    if (!unchanged) {
      const found = pipelineDiff({ ...pipeline, agentsBefore: keyed('before'), agentsAfter: keyed('after'), settings: input.settings, classify: (kinds, production) => ({ kind: kinds[0], kinds, severity: severity(kinds[0], production) }) });
      found.forEach((change, i) => changes.push({ change, order: scenarios.length + i }));
    }
  }
  return changes
    .sort((a, b) => rank(a.change) - rank(b.change) || compareText(a.change.agent, b.change.agent) || compareText(a.change.project, b.change.project) || a.order - b.order)
    .map((c) => c.change);
}

function agentVersion(version: AccessDiffVersion, key: string, settings: ProjectSettings): AgentVersion {
  const config = version.configs[key];
  const agent: AgentRef = { name: config?.name ?? key, configProjectPath: config?.configProjectPath ?? settings.configProjectPath };
  const parsed = config ? (config.parsed ?? parseYaml(config.text)) : null;
  return { agent, parsed, model: parsed ? readCiAccess(parsed.value) : EMPTY_MODEL, template: version.templates?.[key] ?? null, text: config?.text ?? null };
}

/** The projects to compare, each once (GitLab compares paths in lower case, docs/gitlab-behaviour.md#ci_access-entries), in a stable order. */
function projectsOf(before: CiAccessModel, after: CiAccessModel, scenarios: readonly JobScenario[], extra: readonly string[]): string[] {
  const seen = new Map<string, string>();
  const add = (project: string) => {
    if (project && !seen.has(project.toLowerCase())) seen.set(project.toLowerCase(), project);
  };
  for (const model of [before, after]) for (const entry of allEntries(model)) add(scenarioForEntry({ name: '', ref: '' }, entry, '').projectPath);
  for (const s of scenarios) if (s.projectPath !== undefined) add(s.projectPath);
  extra.forEach(add);
  return [...seen.values()];
}

function sameAgent(a: AgentRef, b: AgentRef): boolean {
  return a.name === b.name && a.configProjectPath === b.configProjectPath;
}

const contentKeys = new WeakMap<AccessEntry, string>();

/** An entry's settings without where it is in the file: two entries with the same key decide alike. */
function contentKey(entry: AccessEntry | null): string {
  if (!entry) return 'null';
  let key = contentKeys.get(entry);
  if (key === undefined) {
    const { path: _path, rules, ...rest } = entry;
    contentKeys.set(entry, (key = JSON.stringify([rest, rules?.map(({ path: _rulePath, ...rule }) => rule) ?? null])));
  }
  return key;
}

function sameCandidate(a: Candidate | undefined, b: Candidate | undefined): boolean {
  if (!a || !b) return a === b;
  return a.via === b.via && contentKey(a.entry) === contentKey(b.entry);
}

function identityLabel(outcome: AccessOutcome): string | null {
  const identity = outcome.identity;
  if (!identity) return null;
  return identity.mode === 'impersonate' && identity.groups.length ? `${identity.username} (groups ${identity.groups.join(', ')})` : identity.username;
}

function state(outcome: AccessOutcome, version: AgentVersion, scenario: Scenario, templates: TemplateObjects): AccessState {
  // GitLab renders the template only for an authorized job with an environment whose winning entry enables resource management (docs/gitlab-behaviour.md#opting-in-to-managed-resources).
  const managed = outcome.authorized && outcome.resource_management && !!scenario.environmentName;
  return {
    authorized: outcome.authorized,
    namespace: outcome.namespace,
    identity: identityLabel(outcome),
    accessAs: outcome.access_as,
    via: viaLabel(outcome),
    rule: outcome.rule,
    objects: managed ? templates.objects(version.template, scenario, version.agent.name) : null,
    denial: outcome.denial,
  };
}

/** Whether a situation counts as production: its environment's tier (given or guessed as GitLab does), or a protected ref. */
export function isProductionScenario(scenario: JobScenario): boolean {
  const tier = scenario.environmentTier ?? (scenario.environmentName !== undefined ? guessEnvironmentTier(scenario.environmentName) : undefined);
  return tier === 'production' || scenario.protectedRef === true;
}

function compare(
  key: string,
  after: AgentVersion,
  project: string,
  scenario: JobScenario,
  outcomeBefore: AccessOutcome,
  outcomeAfter: AccessOutcome,
  stateBefore: () => AccessState,
  stateAfter: () => AccessState,
  before: AgentVersion,
): AccessChange | null {
  // Denied before and after: whichever entry denies, the job gets nothing either way.
  if (!outcomeBefore.authorized && !outcomeAfter.authorized) return null;
  const b = stateBefore();
  const a = stateAfter();
  const kinds: ChangeKind[] = [];
  if (!b.authorized) kinds.push('gained');
  else if (!a.authorized) kinds.push('lost');
  else {
    if (JSON.stringify(outcomeBefore.identity) !== JSON.stringify(outcomeAfter.identity)) kinds.push('identity');
    if (b.namespace !== a.namespace) kinds.push('namespace');
    if (JSON.stringify(b.objects) !== JSON.stringify(a.objects)) kinds.push('objects');
    // Which entry and which rule decide, by what they say: a rule renumbered by an insertion above it still decides alike.
    if (!kinds.length && (b.via?.toLowerCase() !== a.via?.toLowerCase() || ruleKey(outcomeBefore, before) !== ruleKey(outcomeAfter, after))) kinds.push('via');
  }
  if (!kinds.length) return null;
  const production = isProductionScenario(scenario);
  const kind = kinds[0];
  const lines = responsibleLines(outcomeBefore, outcomeAfter, before, after, kinds.includes('objects'));
  return { agent: key, context: kubeContextName(after.agent), project, scenario: scenario.name, production, kind, kinds, severity: severity(kind, production), before: b, after: a, lines };
}

/** What the deciding rule says (its condition, namespace and `when`), or null when no rule decided. */
function ruleKey(outcome: AccessOutcome, version: AgentVersion): string | null {
  if (outcome.rule === null || !outcome.entryPath) return null;
  const path = JSON.stringify(outcome.entryPath);
  const entry = allEntries(version.model).find((e) => JSON.stringify(e.path) === path);
  const rule = entry?.rules?.[outcome.rule - 1];
  return rule ? JSON.stringify([rule.if ?? null, rule.namespace ?? null, rule.when ?? null]) : null;
}

function severity(kind: ChangeKind, production: boolean): ChangeSeverity {
  switch (kind) {
    case 'gained':
      return production ? 'critical' : 'high';
    case 'identity':
    case 'lost':
      return production ? 'high' : 'medium';
    case 'namespace':
    case 'objects':
      return 'medium';
    case 'via':
      return 'low';
  }
}

function rank(change: AccessChange): number {
  return SEVERITY_ORDER.indexOf(change.severity) * KIND_ORDER.length + KIND_ORDER.indexOf(change.kind);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The rule that decided, else the entry: in the new version, or in the old one when no entry of the new version was reached. */
function responsibleLines(outcomeBefore: AccessOutcome, outcomeAfter: AccessOutcome, before: AgentVersion, after: AgentVersion, objects: boolean): ChangeLocation[] {
  const out: ChangeLocation[] = [];
  const line = (outcome: AccessOutcome, version: AgentVersion): number | null => {
    if (!outcome.entryPath || !version.parsed?.doc) return null;
    const path: DataPath = outcome.rule !== null ? [...outcome.entryPath, 'rules', outcome.rule - 1] : outcome.entryPath;
    const span = nodeSpan(nodeAtPath(version.parsed.doc, path)?.node);
    return span ? version.parsed.index.positionAt(span[0]).line : null;
  };
  const inAfter = line(outcomeAfter, after);
  const inBefore = inAfter === null ? line(outcomeBefore, before) : null;
  if (inAfter !== null) out.push({ file: 'config', version: 'after', line: inAfter });
  else if (inBefore !== null) out.push({ file: 'config', version: 'before', line: inBefore });
  if (objects && before.template !== after.template) {
    const changed = firstChangedLine(before.template, after.template);
    if (changed !== null) out.push({ file: 'template', version: after.template === null ? 'before' : 'after', line: changed });
  }
  return out;
}

/** The first line where two texts differ (in the newer one; 0 when a file appears or disappears). */
function firstChangedLine(before: string | null, after: string | null): number | null {
  if (before === null || after === null) return 0;
  const a = before.split(/\r?\n/);
  const b = after.split(/\r?\n/);
  for (let i = 0; i < Math.max(a.length, b.length); i++) if (a[i] !== b[i]) return Math.min(i, Math.max(b.length - 1, 0));
  return null;
}
