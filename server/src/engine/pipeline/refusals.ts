/**
 * What makes GitLab create no pipeline at all, decided offline: the logical validations of its YAML
 * processor (lib/gitlab/ci/yaml_processor.rb `validate_job!`, job by job: the stage, then `needs`),
 * after the errors of reading the configuration (includes, `extends`).
 * docs/gitlab-behaviour.md#pipelines-gitlab-refuses.
 */
import type { PipelineJob, PipelineProblem, SourceLocation } from './model';
import type { YNode } from './tree';
import { scalarText } from './values';

/** Without `stages:` (lib/gitlab/ci/config/entry/stages.rb), wrapped in `.pre` and `.post`. */
const DEFAULT_STAGES = ['build', 'test', 'deploy'];
const EDGE_STAGES = ['.pre', '.post'];

/**
 * The stages of the pipeline: the declared ones (or the default three) between `.pre` and `.post`,
 * as `EdgeStagesInjector.wrap_stages` places them; undefined when `stages:` is not a list of names.
 */
export function declaredStages(node: YNode | undefined): string[] | undefined {
  if (node !== undefined && node.kind !== 'seq') return undefined;
  const names = node ? node.items.map(scalarText) : DEFAULT_STAGES;
  if (names.some((name) => name === undefined)) return undefined;
  return ['.pre', ...(names as string[]).filter((name) => !EDGE_STAGES.includes(name)), '.post'];
}

export interface Refusals {
  /** An error at each job GitLab's validations refuse (its `stage:` or need, else the job). */
  readonly problems: PipelineProblem[];
  /** GitLab's refusal: its message for the first error it raises. */
  readonly refusal?: { readonly message: string; readonly location: SourceLocation };
}

/** Reading errors after which GitLab creates no pipeline (the file, its includes, `extends`, a matrix too large). */
const REFUSING_READ_ERRORS = new Set([
  'pipeline.notAMapping',
  'pipeline.includeMissing',
  'pipeline.includeLoop',
  'pipeline.includeLimit',
  'pipeline.includeExtension',
  'pipeline.extendsLoop',
  'pipeline.extendsUnknown',
  'pipeline.extendsInvalid',
  'pipeline.extendsTooDeep',
  'pipeline.matrixTooLarge',
]);

/**
 * The refusals of a pipeline: the first reading error GitLab would raise, else the first job, in
 * order, whose stage is not declared or that needs a job the pipeline does not have. `stages` is
 * undefined when unknown here, `complete` false when an include was not read (a stage or a needed
 * job may be in it).
 */
export function pipelineRefusals(jobs: readonly PipelineJob[], stages: readonly string[] | undefined, complete: boolean, readProblems: readonly PipelineProblem[]): Refusals {
  const problems: PipelineProblem[] = [];
  const read = readProblems.find((p) => p.severity === 'error' && REFUSING_READ_ERRORS.has(p.code));
  let refusal: Refusals['refusal'] = read ? { message: read.message.replace(/[:;.]?\s*GitLab rejects the (pipeline|file)\.?$/, ''), location: read.location } : undefined;
  const reported = new Set<string>();
  const refuse = (location: SourceLocation, code: string, message: string) => {
    refusal ??= { message, location };
    // The jobs of one parallel:matrix share their places: one error at each.
    const key = `${location.file}:${location.range.start.line}:${location.range.start.character}:${code}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push({ location, severity: 'error', code, message: `${message}. GitLab does not create the pipeline.` });
  };
  const names = new Set(jobs.flatMap((job) => (job.matrixOf ? [job.name, job.matrixOf] : [job.name])));
  for (const job of jobs) {
    if (stages && !stages.includes(job.stage)) {
      refuse(job.stageLocation ?? job.location, 'pipeline.undefinedStage', `${job.name} job: chosen stage ${job.stage} does not exist; available stages are ${stages.join(', ')}`);
    }
    if (!complete) continue;
    for (const need of job.needs ?? []) {
      if (!names.has(need.job)) refuse(need.location, 'pipeline.undefinedNeed', `${job.name} job: undefined need: ${need.job}`);
    }
  }
  return { problems, ...(refusal ? { refusal } : {}) };
}
