import type { EngineDiagnostic } from '../diagnostics';
import { kubeContextName } from '../access/identity';
import { accessMap, rowsByJob, type AccessMapInput, type JobAccess, type KeptRows, type MappedAgent } from './accessMap';
import { readPipelineReusing, type ReadingMemo, type ReusedJob } from './readPipeline';
import type { Pipeline, PipelineFileReader, PipelineJob } from './model';
import { pipelineDiagnostics } from './pipelineDiagnostics';
import { asPipelineScenario, presetPipelineScenarios } from './scenarios';
import type { JobScenario } from '../access/scenarios';
import { childPipelineAccess } from './childPipelines';
import type { ProjectSettings } from '../settings/projectSettings';

export interface PipelineAccessInput {
  /** The text of `.gitlab-ci.yml` (as the editor holds it, or as read from disk). */
  readonly text: string;
  /** Its path relative to the repository root, as `include:local` paths are. */
  readonly file: string;
  /** Reads the files `include:local` names, relative to the repository root. */
  readonly read: PipelineFileReader;
  /** Full path of the project the pipeline runs in. */
  readonly projectPath: string;
  readonly settings: ProjectSettings;
  /** The agents whose contexts a job may get: every agent configuration the face found. */
  readonly agents: readonly MappedAgent[];
  /** Situations to map instead of the active ones (the CLI's scenario flags). */
  readonly scenarios?: readonly JobScenario[];
  /**
   * The map of an earlier version of the same file (the editor's last one): jobs whose entries, and
   * everything they depend on, are unchanged keep their reading and rows, moved to where they are now.
   */
  readonly previous?: PipelineAccess;
}

export interface PipelineAccess {
  readonly pipeline: Pipeline;
  /** The situations mapped, in order. */
  readonly scenarios: readonly string[];
  readonly map: readonly JobAccess[];
  /** The jobs of the child pipelines (`trigger:include`), each row naming its trigger job as `parent`. */
  readonly children: readonly JobAccess[];
  /** The pipeline's reading problems and where pipeline and agents disagree; `file` says which file of the pipeline. */
  readonly diagnostics: readonly (EngineDiagnostic & { readonly file: string })[];
}

/**
 * The pipeline's access map for every face: which job gets which cluster, where and as whom, in
 * each active pipeline situation (the built-in ones unless turned off, then the user's scenarios
 * without their environment), and the diagnostics that follow from it.
 */
export function pipelineAccess(input: PipelineAccessInput): PipelineAccess {
  const before = input.previous ? memos.get(input.previous) : undefined;
  const reading = readPipelineReusing(input.text, input.read, input.file, before?.reading ?? null);
  const pipeline = reading.pipeline;
  const scenarios = input.scenarios ?? [...(input.settings.usePresetScenarios ? presetPipelineScenarios(input.settings.defaultBranch) : []), ...input.settings.scenarios.map(asPipelineScenario)];
  const mapInput: AccessMapInput = {
    pipeline,
    projectPath: input.projectPath,
    defaultBranch: input.settings.defaultBranch,
    scenarios,
    agents: input.agents,
    options: { target: input.settings.target, noRuleMatch: input.settings.noRuleMatch, overlongNamespace: input.settings.overlongNamespace },
  };
  const map = accessMap(mapInput, before && sameMapping(before.input, mapInput) ? keptRows(reading.reused, before.rows) : undefined);
  const knownContexts = input.agents.map((a) => kubeContextName(a.agent));
  const problems = pipeline.problems.map((p) => ({ file: p.location.file, range: p.location.range, severity: p.severity, code: p.code, message: p.message }));
  const children = childPipelineAccess(pipeline, map, { projectPath: mapInput.projectPath, defaultBranch: mapInput.defaultBranch, agents: mapInput.agents, options: mapInput.options }, scenarios, input.read, knownContexts);
  const result = { pipeline, scenarios: scenarios.map((s) => s.name), map, children: children.rows, diagnostics: [...problems, ...pipelineDiagnostics(pipeline, map, knownContexts), ...children.diagnostics] };
  memos.set(result, { reading: reading.memo, input: mapInput, rows: rowsByJob(pipeline.jobs, map) });
  return result;
}

/** What each map leaves for the next one that names it `previous`; dropped with the map. */
const memos = new WeakMap<PipelineAccess, { readonly reading: ReadingMemo | null; readonly input: AccessMapInput; readonly rows: ReadonlyMap<PipelineJob, readonly JobAccess[]> }>();

/** The rows of a job taken from the previous reading, moved as the job moved. */
function keptRows(reused: ReadonlyMap<PipelineJob, ReusedJob>, rows: ReadonlyMap<PipelineJob, readonly JobAccess[]>): KeptRows {
  return (job) => {
    const taken = reused.get(job);
    const before = taken && rows.get(taken.previous);
    return (before && taken.moved(before)) ?? undefined;
  };
}

/**
 * Whether rows of the earlier map still hold for the same jobs: the same refusal (or none), project, situations, agents
 * (an agent's configuration compared by its parsed model: a new parse is a new agent) and options.
 * The pipeline-wide keywords are the reading's to compare.
 */
function sameMapping(a: AccessMapInput, b: AccessMapInput): boolean {
  return (
    a.pipeline.refusal?.message === b.pipeline.refusal?.message &&
    a.projectPath === b.projectPath &&
    a.projectId === b.projectId &&
    a.defaultBranch === b.defaultBranch &&
    JSON.stringify(a.options) === JSON.stringify(b.options) &&
    JSON.stringify(a.scenarios) === JSON.stringify(b.scenarios) &&
    a.agents.length === b.agents.length &&
    a.agents.every((agent, i) => agent.ciAccess === b.agents[i].ciAccess && JSON.stringify(agent.agent) === JSON.stringify(b.agents[i].agent))
  );
}
