/**
 * `stages:` as GitLab reads it, and the jobs whose stage it does not declare: GitLab's YAML
 * processor then refuses the whole pipeline (`validate_job_stage!` in lib/gitlab/ci/yaml_processor.rb:
 * "<job> job: chosen stage <stage> does not exist; available stages are …").
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

export interface StageCheck {
  /** An error at each job whose stage is not declared (at its `stage:`, else at the job). */
  readonly problems: PipelineProblem[];
  /** GitLab's refusal: its message for the first such job, in file order. */
  readonly refusal?: { readonly message: string; readonly location: SourceLocation };
}

/** The jobs in undeclared stages; none when the stages are unknown here (`stages:` not a list of names). */
export function undefinedStages(jobs: readonly PipelineJob[], stages: readonly string[] | undefined): StageCheck {
  const problems: PipelineProblem[] = [];
  if (!stages) return { problems };
  let refusal: StageCheck['refusal'];
  const reported = new Set<string>();
  for (const job of jobs) {
    if (stages.includes(job.stage)) continue;
    const location = job.stageLocation ?? job.location;
    const message = `${job.name} job: chosen stage ${job.stage} does not exist; available stages are ${stages.join(', ')}`;
    refusal ??= { message, location };
    // The jobs of one parallel:matrix share the stage's place: one error there.
    const key = `${location.file}:${location.range.start.line}:${location.range.start.character}`;
    if (reported.has(key)) continue;
    reported.add(key);
    problems.push({ location, severity: 'error', code: 'pipeline.undefinedStage', message: `${message}. GitLab does not create the pipeline.` });
  }
  return { problems, ...(refusal ? { refusal } : {}) };
}
