/**
 * One job of the resolved configuration (after includes, `extends` and `!reference`), read as far as
 * cluster access needs: stage, `when`, `rules` or `only`/`except`, `variables`, `environment` and the
 * kubectl contexts its scripts name. `default:` fills `before_script`/`after_script` unless the job
 * sets them or `inherit:default` leaves them out (https://docs.gitlab.com/ci/yaml/#default,
 * https://docs.gitlab.com/ci/yaml/#inheritdefault).
 */
import { validateExpression } from '../expr';
import { ENVIRONMENT_TIERS, type EnvironmentTier } from '../vars/environment-tier';
import { findKubeContexts } from './kubeContexts';
import type { ChildPipeline, JobEnvironment, PipelineJob, PipelineRule, RefFilter, SourceLocation } from './model';
import { flatten } from './references';
import type { TreeProblem, YEntry, YMap, YNode } from './tree';
import { present, readVariables, scalarText, stringValue, whenValue, type Locator } from './values';

/** What every job may inherit: `default:` keys (or the deprecated top-level ones). */
export interface JobDefaults {
  readonly beforeScript?: YNode;
  readonly afterScript?: YNode;
}

/** The stage of a job without `stage:` (lib/gitlab/ci/config/entry/stage.rb). */
export const DEFAULT_JOB_STAGE = 'test';

const ENVIRONMENT_ACTIONS = ['start', 'prepare', 'stop', 'verify', 'access'] as const;

/** Reads a job; problems of shape are appended to `problems`. */
export function readJob(name: string, entry: YEntry, job: YMap, defaults: JobDefaults, locator: Locator, problems: TreeProblem[]): PipelineJob {
  const get = (key: string): YNode | undefined => job.entries.get(key)?.value;
  const inheritDefault = inheritValue(get('inherit'), 'default');
  const inherits = (key: string): boolean => inheritDefault === true || (Array.isArray(inheritDefault) && inheritDefault.includes(key));
  const scriptLines = [
    ...flatten(present(get('before_script')) ? get('before_script') : inherits('before_script') ? defaults.beforeScript : undefined),
    ...flatten(get('script')),
    ...flatten(present(get('after_script')) ? get('after_script') : inherits('after_script') ? defaults.afterScript : undefined),
  ];
  const inheritVariables = inheritValue(get('inherit'), 'variables');
  const rulesNode = get('rules');
  const onlyNode = get('only');
  const exceptNode = get('except');
  if (present(rulesNode) && (present(onlyNode) || present(exceptNode))) {
    // lib/gitlab/ci/config/entry/processable.rb: `only`/`except` "key may not be used with `rules`".
    problems.push({ loc: (present(onlyNode) ? onlyNode : exceptNode)!.loc, severity: 'error', code: 'pipeline.rulesWithOnly', message: `${name}: only and except may not be used with rules; GitLab rejects the job. Here rules decide.` });
  }
  const environment = readEnvironment(get('environment'), locator, problems, name);
  return {
    name,
    location: locator.location(entry.keyLoc),
    stage: stringValue(get('stage')) ?? DEFAULT_JOB_STAGE,
    ...(present(get('stage')) ? { stageLocation: locator.location(get('stage')!.loc) } : {}),
    when: whenValue(get('when')) ?? 'on_success',
    ...(present(rulesNode) ? { rules: readRules(rulesNode!, locator, problems, `${name}:`) } : {}),
    ...(present(onlyNode) ? { only: readRefFilter(onlyNode!, 'only', locator, problems, name) } : {}),
    ...(present(exceptNode) ? { except: readRefFilter(exceptNode!, 'except', locator, problems, name) } : {}),
    variables: readVariables(get('variables'), problems, `${name}:`),
    ...(inheritVariables !== true ? { inheritVariables } : {}),
    ...(environment ? { environment } : {}),
    ...(present(get('trigger')) ? { trigger: true } : {}),
    ...childPipelineOf(get('trigger'), locator),
    ...needsOf(get('needs'), locator),
    kubeContexts: [...findKubeContexts(scriptLines, (file) => locator.text(file)), ...kubeContextVariable(get('variables'))].map((c) => ({ context: c.context, location: locator.location(c.loc) })),
  };
}

/**
 * The jobs of this pipeline a job `needs` (https://docs.gitlab.com/ci/yaml/#needs): names, or
 * `{job: …}` entries; optional ones and needs of other pipelines or projects are left out, since
 * their absence is no error here.
 */
function needsOf(node: YNode | undefined, locator: Locator): { needs: PipelineJob['needs'] } | Record<string, never> {
  if (node?.kind !== 'seq') return {};
  const needs: { job: string; location: SourceLocation }[] = [];
  for (const item of node.items) {
    const name = scalarText(item);
    if (name !== undefined) {
      needs.push({ job: name, location: locator.location(item.loc) });
      continue;
    }
    if (item.kind !== 'map' || item.entries.has('project') || item.entries.has('pipeline')) continue;
    const optional = item.entries.get('optional')?.value;
    if (optional?.kind === 'scalar' && optional.value === true) continue;
    const job = item.entries.get('job')?.value;
    const jobName = scalarText(job);
    if (jobName !== undefined) needs.push({ job: jobName, location: locator.location(job!.loc) });
  }
  return needs.length ? { needs } : {};
}

const CHILD_INCLUDE_KINDS = ['local', 'artifact', 'project', 'template', 'remote', 'component'];

/** `trigger:include` (lib/gitlab/ci/config/entry/trigger.rb): a string or a list of strings and `{local: …}`-style entries. */
function childPipelineOf(trigger: YNode | undefined, locator: Locator): { childPipeline: ChildPipeline } | Record<string, never> {
  const include = trigger?.kind === 'map' ? trigger.entries.get('include')?.value : undefined;
  if (!present(include)) return {};
  const local: string[] = [];
  const elsewhere: ChildPipeline['elsewhere'][number][] = [];
  for (const item of include!.kind === 'seq' ? include!.items : [include!]) {
    const text = scalarText(item);
    if (text !== undefined) {
      local.push(text);
      continue;
    }
    if (item.kind !== 'map') continue;
    const kind = CHILD_INCLUDE_KINDS.find((k) => item.entries.has(k));
    if (!kind) continue;
    const value = scalarText(item.entries.get(kind)!.value) ?? null;
    if (kind === 'local' && value !== null) local.push(value);
    else elsewhere.push({ kind, value, location: locator.location(item.loc) });
  }
  const forward = trigger!.kind === 'map' ? trigger!.entries.get('forward')?.value : undefined;
  const yamlVariables = forward?.kind === 'map' ? forward.entries.get('yaml_variables')?.value : undefined;
  const forwardYamlVariables = !(yamlVariables?.kind === 'scalar' && yamlVariables.value === false);
  return { childPipeline: { local, elsewhere, forwardYamlVariables, location: locator.location(include!.loc) } };
}

/** A job's own `KUBE_CONTEXT` variable (the context Auto DevOps jobs use). */
function kubeContextVariable(variables: YNode | undefined): { context: string; loc: YNode['loc'] }[] {
  const node = variables?.kind === 'map' ? variables.entries.get('KUBE_CONTEXT')?.value : undefined;
  const value = node?.kind === 'map' ? node.entries.get('value')?.value : node;
  return value?.kind === 'scalar' && value.value !== null && value.text !== '' ? [{ context: value.text, loc: value.loc }] : [];
}

/** `inherit:default` / `inherit:variables`: true (default), false, or the list of names kept. */
function inheritValue(inherit: YNode | undefined, key: 'default' | 'variables'): boolean | string[] {
  const node = inherit?.kind === 'map' ? inherit.entries.get(key)?.value : undefined;
  if (node?.kind === 'scalar' && typeof node.value === 'boolean') return node.value;
  if (node?.kind === 'seq') return node.items.map((i) => scalarText(i) ?? '');
  return true;
}

/** `rules:` of a job or of `workflow:`, with nested lists from `!reference` flattened. */
export function readRules(node: YNode, locator: Locator, problems: TreeProblem[], where: string): PipelineRule[] {
  if (node.kind !== 'seq') {
    problems.push({ loc: node.loc, severity: 'error', code: 'pipeline.rulesShape', message: `${where} rules must be a list of rules.` });
    return [];
  }
  const rules: PipelineRule[] = [];
  for (const item of flatten(node)) {
    if (item.kind !== 'map') {
      if (item.kind !== 'scalar' || item.value !== null) problems.push({ loc: item.loc, severity: 'error', code: 'pipeline.ruleShape', message: `${where} each rule must be a mapping (if, changes, exists, when, variables, …).` });
      continue;
    }
    const ifNode = item.entries.get('if')?.value;
    const ifText = stringValue(ifNode);
    if (present(ifNode) && ifText === undefined) problems.push({ loc: ifNode!.loc, severity: 'error', code: 'pipeline.ruleIfShape', message: `${where} rules:if must be a string expression.` });
    if (ifText !== undefined) checkExpression(ifText, ifNode!, problems, `${where} rules:if`);
    const whenNode = item.entries.get('when')?.value;
    const when = whenValue(whenNode);
    if (present(whenNode) && !when) problems.push({ loc: whenNode!.loc, severity: 'error', code: 'pipeline.ruleWhen', message: `${where} rules:when must be one of on_success, on_failure, always, manual, delayed, never.` });
    const variablesNode = item.entries.get('variables')?.value;
    const changes = item.entries.get('changes')?.value;
    const compareTo = changes?.kind === 'map' ? scalarText(changes.entries.get('compare_to')?.value) : undefined;
    rules.push({
      ...(ifText !== undefined ? { if: ifText } : {}),
      ...(present(changes) ? { changes: true } : {}),
      ...(compareTo !== undefined ? { compareTo } : {}),
      ...(present(item.entries.get('exists')?.value) ? { exists: true } : {}),
      ...(when ? { when } : {}),
      ...(present(variablesNode) ? { variables: readVariables(variablesNode, problems, `${where} rules`) } : {}),
      location: locator.location(item.loc),
    });
  }
  return rules;
}

/**
 * `only:`/`except:` as a list of refs or `{refs, variables, changes, kubernetes}`. A mapping for `only`
 * without `refs` still has GitLab's default refs, `branches` and `tags` (lib/gitlab/ci/config/entry/policy.rb,
 * `Policy#value` merges its default into the given value).
 */
function readRefFilter(node: YNode, key: 'only' | 'except', locator: Locator, problems: TreeProblem[], job: string): RefFilter {
  const location = locator.location(node.loc);
  const strings = (n: YNode | undefined): string[] => flatten(n).flatMap((i) => (i.kind === 'scalar' && i.value !== null ? [i.text] : []));
  if (node.kind === 'seq') return { refs: strings(node), location };
  if (node.kind === 'map') {
    const refs = node.entries.get('refs')?.value;
    const variables = node.entries.get('variables')?.value;
    for (const expr of flatten(variables)) if (expr.kind === 'scalar' && typeof expr.value === 'string') checkExpression(expr.value, expr, problems, `${job}: ${key}:variables`);
    return {
      refs: present(refs) ? strings(refs) : key === 'only' ? ['branches', 'tags'] : [],
      ...(present(variables) ? { variables: strings(variables) } : {}),
      ...(present(node.entries.get('changes')?.value) ? { changes: true } : {}),
      ...(present(node.entries.get('kubernetes')?.value) ? { kubernetes: true } : {}),
      location,
    };
  }
  problems.push({ loc: node.loc, severity: 'error', code: 'pipeline.refFilterShape', message: `${job}: ${key} has to be either an array of conditions or a hash; GitLab rejects this job. Read here as a list of one ref.` });
  return { refs: strings(node), location };
}

/** `environment:` in its string form or as a mapping (https://docs.gitlab.com/ci/yaml/#environment). */
function readEnvironment(node: YNode | undefined, locator: Locator, problems: TreeProblem[], job: string): JobEnvironment | undefined {
  if (!present(node)) return undefined;
  if (node!.kind === 'scalar') return { name: node!.text, location: locator.location(node!.loc) };
  if (node!.kind !== 'map') {
    problems.push({ loc: node!.loc, severity: 'error', code: 'pipeline.environmentShape', message: `${job}: environment must be a name or a mapping with name.` });
    return undefined;
  }
  const env = node as YMap;
  const get = (key: string): YNode | undefined => env.entries.get(key)?.value;
  const name = scalarText(get('name'));
  if (name === undefined) {
    problems.push({ loc: env.loc, severity: 'error', code: 'pipeline.environmentName', message: `${job}: environment has no name; GitLab rejects the job.` });
    return undefined;
  }
  const action = stringValue(get('action'));
  const tier = stringValue(get('deployment_tier'));
  const url = scalarText(get('url'));
  const onStop = scalarText(get('on_stop'));
  const k8sNode = get('kubernetes');
  let kubernetes: JobEnvironment['kubernetes'];
  if (k8sNode?.kind === 'map') {
    const k = (key: string): YNode | undefined => k8sNode.entries.get(key)?.value;
    const agent = scalarText(k('agent'));
    const namespace = scalarText(k('namespace'));
    const managed = k('managed_resources');
    const enabled = managed?.kind === 'map' ? managed.entries.get('enabled')?.value : undefined;
    const dashboard = k('dashboard');
    const dashboardNamespace = dashboard?.kind === 'map' ? scalarText(dashboard.entries.get('namespace')?.value) : undefined;
    kubernetes = {
      ...(agent !== undefined ? { agent } : {}),
      ...(namespace !== undefined ? { namespace } : {}),
      ...(enabled?.kind === 'scalar' && typeof enabled.value === 'boolean' ? { managedResources: enabled.value } : {}),
      ...(dashboardNamespace !== undefined ? { dashboardNamespace } : {}),
      location: locator.location(k8sNode.loc),
    };
  }
  if (action !== undefined && !(ENVIRONMENT_ACTIONS as readonly string[]).includes(action)) {
    problems.push({ loc: get('action')!.loc, severity: 'error', code: 'pipeline.environmentAction', message: `${job}: environment:action must be one of ${ENVIRONMENT_ACTIONS.join(', ')}.` });
  }
  return {
    name,
    ...(action !== undefined && (ENVIRONMENT_ACTIONS as readonly string[]).includes(action) ? { action: action as JobEnvironment['action'] } : {}),
    ...(tier !== undefined && (ENVIRONMENT_TIERS as readonly string[]).includes(tier) ? { deploymentTier: tier as EnvironmentTier } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(kubernetes ? { kubernetes } : {}),
    ...(onStop !== undefined ? { onStop } : {}),
    location: locator.location(env.loc),
  };
}

/** An expression GitLab refuses when it reads the file (`ExpressionValidator`: "invalid expression syntax"); such a rule never matches here. */
function checkExpression(expression: string, node: YNode, problems: TreeProblem[], where: string): void {
  const result = validateExpression(expression);
  if (result.valid) return;
  problems.push({ loc: node.loc, severity: 'error', code: 'pipeline.invalidExpression', message: `${where}: invalid expression syntax (${result.error.message}); GitLab rejects the pipeline. Here the rule never matches.` });
}

/** GitLab's limit of jobs one `parallel:matrix` creates (https://docs.gitlab.com/ci/yaml/#parallelmatrix). */
export const MAX_MATRIX_JOBS = 200;

/**
 * The jobs `parallel:matrix` makes of one (lib/gitlab/ci/config/normalizer/matrix_strategy.rb): each
 * entry's variables multiplied out, in order; each job named `job: [value, value]` and given those
 * variables over its own (https://docs.gitlab.com/ci/yaml/#parallelmatrix). The job itself when it
 * has no matrix. `parallel: N` makes N identical jobs as far as access goes: the job is kept whole.
 */
export function matrixJobs(job: PipelineJob, parallel: YNode | undefined, problems: TreeProblem[]): PipelineJob[] {
  const matrix = parallel?.kind === 'map' ? parallel.entries.get('matrix')?.value : undefined;
  if (!matrix || matrix.kind !== 'seq') return [job];
  const combinations: Record<string, string>[] = [];
  for (const entry of flatten(matrix)) {
    if (entry.kind !== 'map') continue;
    let partial: Record<string, string>[] = [{}];
    for (const [name, { value }] of entry.entries) {
      const values = flatten(value).flatMap((v) => (v.kind === 'scalar' && v.value !== null ? [v.text] : []));
      partial = partial.flatMap((combo) => values.map((v) => ({ ...combo, [name]: v })));
      if (partial.length > MAX_MATRIX_JOBS) break;
    }
    combinations.push(...partial);
    if (combinations.length > MAX_MATRIX_JOBS) {
      problems.push({ loc: matrix.loc, severity: 'error', code: 'pipeline.matrixTooLarge', message: `${job.name}: parallel:matrix would create more than ${MAX_MATRIX_JOBS} jobs; GitLab rejects the pipeline. Only the first ${MAX_MATRIX_JOBS} are shown.` });
      break;
    }
  }
  if (combinations.length === 0) return [job];
  return combinations.slice(0, MAX_MATRIX_JOBS).map((variables) => ({
    ...job,
    name: `${job.name}: [${Object.values(variables).join(', ')}]`,
    matrixOf: job.name,
    variables: { ...job.variables, ...variables },
  }));
}
