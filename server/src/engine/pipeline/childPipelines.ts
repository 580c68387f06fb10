/**
 * Child pipelines (`trigger:include`) as GitLab creates them: the child runs in the same project and
 * ref as its parent, with `CI_PIPELINE_SOURCE` `parent_pipeline`, the parent's merge request, and the
 * trigger job's YAML variables (its own, the global ones it inherits and its `parallel:matrix`
 * values) unless `trigger:forward:yaml_variables` is false (app/models/ci/bridge.rb `child_params`,
 * lib/gitlab/ci/variables/downstream/generator.rb; https://docs.gitlab.com/ci/pipelines/downstream_pipelines/).
 * Two levels of children at most. docs/gitlab-behaviour.md#child-pipelines.
 */
import type { JobScenario } from '../access/scenarios';
import type { EngineDiagnostic } from '../diagnostics';
import { accessMap, type AccessMapInput, type JobAccess } from './accessMap';
import { yamlVariables } from './jobVariables';
import type { ChildPipeline, Pipeline, PipelineFileReader, PipelineJob } from './model';
import { once, pipelineDiagnostics } from './pipelineDiagnostics';
import { readPipeline } from './readPipeline';

/** Parent and child pipelines have at most two levels of child pipelines (https://docs.gitlab.com/ci/pipelines/downstream_pipelines/). */
const MAX_CHILD_DEPTH = 2;

export interface ChildAccess {
  /** The child jobs' rows, each with the trigger job it runs under (`parent`), per situation where that job runs. */
  readonly rows: readonly JobAccess[];
  readonly diagnostics: readonly (EngineDiagnostic & { readonly file: string })[];
}

type Diagnostic = EngineDiagnostic & { readonly file: string };

/** The rows of every child pipeline the jobs of `parent` trigger, in the situations where the trigger job runs. */
export function childPipelineAccess(parent: Pipeline, parentRows: readonly JobAccess[], input: Omit<AccessMapInput, 'pipeline' | 'scenarios'>, scenarios: readonly JobScenario[], read: PipelineFileReader, knownContexts: readonly string[], depth = 1): ChildAccess {
  const rows: JobAccess[] = [];
  const diagnostics: Diagnostic[] = [];
  // The jobs of a trigger's parallel:matrix share its trigger:include: its child is read once
  // (null: it has no local file to read).
  const children = new Map<ChildPipeline, Pipeline | null>();
  for (const job of parent.jobs) {
    const child = job.childPipeline;
    if (!child) continue;
    let pipeline = children.get(child);
    if (pipeline === undefined) {
      diagnostics.push(...child.elsewhere.map((item) => notRead(item)));
      pipeline = child.local.length ? readChild(child, job, read, diagnostics) : null;
      children.set(child, pipeline);
    }
    if (!pipeline) continue;
    const forwarded = child.forwardYamlVariables ? Object.fromEntries(yamlVariables(parent, job)) : {};
    const own: JobAccess[] = [];
    for (const situation of scenarios) {
      const trigger = parentRows.find((r) => r.job === job.name && r.scenario === situation.name);
      if (!trigger || trigger.runs === false) continue;
      const scenario: JobScenario = { ...situation, pipelineSource: 'parent_pipeline', variables: { ...situation.variables, ...forwarded } };
      own.push(...accessMap({ ...input, pipeline, scenarios: [scenario] }).map((row) => ({ ...row, parent: job.name })));
    }
    rows.push(...own);
    diagnostics.push(...pipelineDiagnostics(pipeline, own, knownContexts));
    if (depth < MAX_CHILD_DEPTH) {
      // What the trigger forwarded is not forwarded again: in the child it is a pipeline variable,
      // which a nested trigger passes on only with forward:pipeline_variables.
      const grandchildren = childPipelineAccess(pipeline, own, input, scenarios, read, knownContexts, depth + 1);
      rows.push(...grandchildren.rows);
      diagnostics.push(...grandchildren.diagnostics);
    }
  }
  return { rows, diagnostics: once(diagnostics) };
}

/**
 * The child pipeline: a configuration holding only `include:` of the trigger's local files, as
 * Ci::Bridge#yaml_for_downstream writes it; problems of that configuration itself are shown at the
 * trigger's `include:`.
 */
function readChild(child: ChildPipeline, job: PipelineJob, read: PipelineFileReader, diagnostics: Diagnostic[]): Pipeline {
  const name = `${job.location.file} (child pipeline of ${job.name})`;
  const text = `include:\n${child.local.map((file) => `  - local: ${JSON.stringify(file)}`).join('\n')}\n`;
  const pipeline = readPipeline(text, read, name);
  for (const p of pipeline.problems) {
    const location = p.location.file === name ? child.location : p.location;
    diagnostics.push({ file: location.file, range: location.range, severity: p.severity, code: p.code, message: p.message });
  }
  return pipeline;
}

function notRead(item: ChildPipeline['elsewhere'][number]): Diagnostic {
  const where = item.value ? ` (${item.value})` : '';
  const message =
    item.kind === 'artifact'
      ? `trigger:include:artifact${where} is a dynamic child pipeline: its configuration is made by a job at run time, so its jobs cannot be shown here.`
      : `trigger:include:${item.kind}${where} is not read here: its file is not in this workspace, so the child pipeline's jobs from it are not shown.`;
  return { file: item.location.file, range: item.location.range, severity: 'information', code: 'pipeline.childNotResolved', message };
}
