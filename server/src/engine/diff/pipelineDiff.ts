/**
 * The access diff over a pipeline's jobs: each job of `.gitlab-ci.yml` in each pipeline situation
 * is a scenario, with the contexts its KUBECONFIG gets before and after (engine/api `pipelineAccess`).
 */
import type { JobScenario } from '../access/scenarios';
import type { ContextAccess, JobAccess, MappedAgent } from '../pipeline/accessMap';
import type { PipelineFileReader } from '../pipeline/model';
import { asPipelineScenario, presetPipelineScenarios } from '../pipeline/scenarios';
import { pipelineAccess } from '../pipeline/pipelineAccess';
import type { ProjectSettings } from '../settings/projectSettings';
import { guessEnvironmentTier } from '../vars/environment-tier';
import type { AccessChange, AccessState, ChangeKind } from './accessChange';

/** One version of `.gitlab-ci.yml`, as `pipelineAccess` reads it. */
export interface PipelineVersion {
  readonly text: string;
  /** Its path relative to the repository root. */
  readonly file: string;
  /** Reads `include:local` files of the same version. */
  readonly read: PipelineFileReader;
  /** Full path of the project the pipeline runs in. */
  readonly projectPath: string;
}

/** An agent of one version, under its key in the diff's input. */
export interface KeyedAgent extends MappedAgent {
  readonly key: string;
}

/** What the diff of a pipeline needs beyond the pipeline: both versions' agents, and how a change is ranked. */
export interface PipelineDiffInput {
  readonly before: PipelineVersion;
  readonly after: PipelineVersion;
  readonly agentsBefore: readonly KeyedAgent[];
  readonly agentsAfter: readonly KeyedAgent[];
  readonly settings: ProjectSettings;
  readonly classify: (kinds: ChangeKind[], production: boolean) => Pick<AccessChange, 'kind' | 'kinds' | 'severity'>;
}

/** A context a version does not give the job, and why. */
function absent(context: string, job: JobAccess | undefined): ContextAccess {
  const reason = !job ? 'the job is not in this version of the pipeline' : job.runs === false ? `the job does not run (${job.reason})` : 'the agent has no configuration in this version';
  return { context, authorized: false, namespace: null, identity: null, accessAs: null, reason, via: null, managedEnvironment: false, problems: [] };
}

/**
 * For each job × situation of either version, each agent context whose access differs. A job that
 * does not run gets no context; a context of an agent missing from a version is denied there.
 */
export function pipelineDiff(input: PipelineDiffInput): AccessChange[] {
  const situations: JobScenario[] = [...(input.settings.usePresetScenarios ? presetPipelineScenarios(input.settings.defaultBranch) : []), ...input.settings.scenarios.map(asPipelineScenario)];
  const map = (version: PipelineVersion, agents: readonly KeyedAgent[]) => pipelineAccess({ ...version, settings: input.settings, agents, scenarios: situations }).map;
  const before = index(map(input.before, input.agentsBefore));
  const after = index(map(input.after, input.agentsAfter));
  const keyOf = new Map([...input.agentsBefore, ...input.agentsAfter].map((a) => [contextOf(a), a.key]));
  const out: AccessChange[] = [];
  for (const id of new Set([...after.keys(), ...before.keys()])) {
    const jobBefore = before.get(id);
    const jobAfter = after.get(id);
    const job = (jobAfter ?? jobBefore)!;
    const situation = situations.find((s) => s.name === job.scenario);
    const environment = jobAfter?.environment ?? jobBefore?.environment ?? null;
    const tier = environment ? (environment.tier ?? guessEnvironmentTier(environment.name)) : null;
    const production = tier === 'production' || situation?.protectedRef === true;
    const contexts = new Set([...(jobAfter?.contexts ?? []), ...(jobBefore?.contexts ?? [])].map((c) => c.context));
    for (const context of contexts) {
      const b = jobBefore?.contexts.find((c) => c.context === context) ?? absent(context, jobBefore);
      const a = jobAfter?.contexts.find((c) => c.context === context) ?? absent(context, jobAfter);
      const kinds = compare(b, a);
      if (!kinds.length) continue;
      out.push({
        agent: keyOf.get(context) ?? context,
        context,
        project: input.after.projectPath,
        scenario: `${job.job} · ${job.scenario}`,
        job: job.job,
        production,
        ...input.classify(kinds, production),
        before: state(b),
        after: state(a),
        lines: [{ file: 'pipeline', version: jobAfter ? 'after' : 'before', line: job.location.range.start.line }],
      });
    }
  }
  return out;
}

function contextOf(agent: MappedAgent): string {
  return `${agent.agent.configProjectPath || '<agent configuration project>'}:${agent.agent.name}`;
}

function index(map: readonly JobAccess[]): Map<string, JobAccess> {
  return new Map(map.map((j) => [`${j.job}\u0000${j.scenario}`, j]));
}

function compare(b: ContextAccess, a: ContextAccess): ChangeKind[] {
  if (!b.authorized && !a.authorized) return [];
  if (!b.authorized) return ['gained'];
  if (!a.authorized) return ['lost'];
  const kinds: ChangeKind[] = [];
  if (b.identity !== a.identity || b.accessAs !== a.accessAs) kinds.push('identity');
  if (b.namespace !== a.namespace) kinds.push('namespace');
  if (b.managedEnvironment !== a.managedEnvironment) kinds.push('objects');
  if (!kinds.length && b.via?.toLowerCase() !== a.via?.toLowerCase()) kinds.push('via');
  return kinds;
}

/** A context as an access state; `objects` only says whether GitLab prepares a managed environment first (what it creates is in the config's own changes). */
function state(c: ContextAccess): AccessState {
  return {
    authorized: c.authorized,
    namespace: c.namespace,
    identity: c.identity,
    accessAs: c.accessAs,
    via: c.via,
    rule: null,
    objects: c.managedEnvironment ? ['a managed environment, from the agent\'s template'] : null,
    denial: c.authorized ? null : (c.reason ?? null),
  };
}
