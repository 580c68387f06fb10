import type { EngineDiagnostic } from '../diagnostics';
import { kubeContextName } from '../access/identity';
import { accessMap, type JobAccess, type MappedAgent } from '../pipeline/accessMap';
import { readPipeline } from '../pipeline/readPipeline';
import type { Pipeline, PipelineFileReader } from '../pipeline/model';
import { pipelineDiagnostics } from '../pipeline/pipelineDiagnostics';
import { asPipelineScenario, presetPipelineScenarios } from '../pipeline/scenarios';
import type { JobScenario } from '../access/scenarios';
import type { ProjectSettings } from './settings';

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
}

export interface PipelineAccess {
  readonly pipeline: Pipeline;
  /** The situations mapped, in order. */
  readonly scenarios: readonly string[];
  readonly map: readonly JobAccess[];
  /** The pipeline's reading problems and where pipeline and agents disagree; `file` says which file of the pipeline. */
  readonly diagnostics: readonly (EngineDiagnostic & { readonly file: string })[];
}

/**
 * The pipeline's access map for every face: which job gets which cluster, where and as whom, in
 * each active pipeline situation (the built-in ones unless turned off, then the user's scenarios
 * without their environment), and the diagnostics that follow from it.
 */
export function pipelineAccess(input: PipelineAccessInput): PipelineAccess {
  const pipeline = readPipeline(input.text, input.read, input.file);
  const scenarios = input.scenarios ?? [...(input.settings.usePresetScenarios ? presetPipelineScenarios(input.settings.defaultBranch) : []), ...input.settings.scenarios.map(asPipelineScenario)];
  const map = accessMap({
    pipeline,
    projectPath: input.projectPath,
    defaultBranch: input.settings.defaultBranch,
    scenarios,
    agents: input.agents,
    options: { target: input.settings.target, noRuleMatch: input.settings.noRuleMatch, overlongNamespace: input.settings.overlongNamespace },
  });
  const knownContexts = input.agents.map((a) => kubeContextName(a.agent));
  const problems = pipeline.problems.map((p) => ({ file: p.location.file, range: p.location.range, severity: p.severity, code: p.code, message: p.message }));
  return { pipeline, scenarios: scenarios.map((s) => s.name), map, diagnostics: [...problems, ...pipelineDiagnostics(pipeline, map, knownContexts)] };
}
