/**
 * Reads a project's `.gitlab-ci.yml` into a {@link Pipeline}, in GitLab's order
 * (lib/gitlab/ci/config.rb, `build_config`): the YAML (anchors, merge keys), then `include:`, then
 * `extends`, then `!reference` tags; `default:` and the global keywords are read from the result.
 * Pure: files are read only through the caller's reader. Never throws: whatever cannot be read
 * becomes a {@link PipelineProblem} with its file and range.
 */
import { applyExtends } from './extends';
import { loadConfig } from './includes';
import { matrixJobs, readJob, readRules, type JobDefaults } from './jobs';
import type { Pipeline, PipelineFileReader, PipelineJob, PipelineRule } from './model';
import { ReferenceResolver } from './references';
import type { TreeProblem, YNode } from './tree';
import { Locator, present, readVariables } from './values';

/**
 * Top-level keys that are not jobs (lib/gitlab/ci/config/entry/root.rb; https://docs.gitlab.com/ci/yaml/#global-keywords):
 * `types` is the removed alias of `stages`, `spec` belongs in the header document.
 */
export const RESERVED_KEYWORDS: ReadonlySet<string> = new Set(['default', 'include', 'before_script', 'image', 'services', 'after_script', 'variables', 'stages', 'types', 'cache', 'workflow', 'spec']);

/** Reads the pipeline of `text` (the file `file`), following `include:local` through `read`. */
export function readPipeline(text: string, read: PipelineFileReader, file = '.gitlab-ci.yml'): Pipeline {
  const problems: TreeProblem[] = [];
  const loaded = loadConfig(text, file, safeReader(read, problems, file));
  problems.push(...loaded.problems);
  const locator = new Locator(loaded.texts);
  try {
    const root = applyExtends(loaded.root, problems);
    const resolver = new ReferenceResolver(root, problems);
    const top = (key: string): YNode | undefined => {
      const node = root.entries.get(key)?.value;
      return node ? resolver.resolve(node) : undefined;
    };
    const variables = readVariables(top('variables'), problems, 'Global');
    const workflow = top('workflow');
    const workflowRulesNode = workflow?.kind === 'map' ? workflow.entries.get('rules')?.value : undefined;
    const workflowRules: PipelineRule[] | undefined = present(workflowRulesNode) ? readRules(workflowRulesNode!, locator, problems, 'workflow:') : undefined;
    const defaultNode = top('default');
    const fromDefault = (key: string): YNode | undefined => {
      const node = defaultNode?.kind === 'map' ? defaultNode.entries.get(key)?.value : undefined;
      return present(node) ? node : top(key);
    };
    const defaults: JobDefaults = { beforeScript: fromDefault('before_script'), afterScript: fromDefault('after_script') };

    const jobs: PipelineJob[] = [];
    for (const [name, entry] of root.entries) {
      if (RESERVED_KEYWORDS.has(name) || name.startsWith('.')) continue;
      const value = resolver.resolve(entry.value);
      if (value.kind !== 'map') {
        problems.push({ loc: entry.keyLoc, severity: 'warning', code: 'pipeline.notAJob', message: `${name} is not a keyword and its value is not a mapping, so it is not a job: GitLab rejects the file (jobs config should contain at least one visible job).` });
        continue;
      }
      jobs.push(...matrixJobs(readJob(name, entry, value, defaults, locator, problems), value.entries.get('parallel')?.value, problems));
    }
    if (loaded.incomplete) softenMissing(problems);
    return { jobs, variables, ...(workflowRules ? { workflowRules } : {}), problems: problems.map((p) => locator.problem(p)) };
  } catch (err) {
    // A bug of ours must not take the editor down: report it where the file starts.
    problems.push({ loc: { file, start: 0, end: 0 }, severity: 'error', code: 'pipeline.internal', message: `The pipeline could not be read: ${err instanceof Error ? err.message : String(err)}` });
    return { jobs: [], variables: {}, problems: problems.map((p) => locator.problem(p)) };
  }
}

const MAY_BE_INCLUDED = new Set(['pipeline.extendsUnknown', 'pipeline.referenceMissing']);

/**
 * With an include not read here, a parent or reference target not found may well be in it: such
 * problems become information (once each), saying so, instead of errors GitLab may not raise.
 */
function softenMissing(problems: TreeProblem[]): void {
  for (const [i, p] of problems.entries()) {
    if (MAY_BE_INCLUDED.has(p.code) && p.severity === 'error') {
      problems[i] = { ...p, severity: 'information', message: `${p.message.replace(/: GitLab rejects the pipeline\.$/, '')}; it may be defined in an include that is not resolved here.` };
    }
  }
}

/** The caller's reader, with a throw turned into "absent" and reported. */
function safeReader(read: PipelineFileReader, problems: TreeProblem[], file: string): PipelineFileReader {
  return (path) => {
    try {
      return read(path);
    } catch (err) {
      problems.push({ loc: { file, start: 0, end: 0 }, severity: 'warning', code: 'pipeline.readFailed', message: `${path} could not be read: ${err instanceof Error ? err.message : String(err)}` });
      return null;
    }
  };
}
