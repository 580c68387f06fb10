/**
 * Reads a project's `.gitlab-ci.yml` into a {@link Pipeline}, in GitLab's order
 * (lib/gitlab/ci/config.rb, `build_config`): the YAML (anchors, merge keys), then `include:`, then
 * `extends`, then `!reference` tags; `default:` and the global keywords are read from the result.
 * Pure: files are read only through the caller's reader. Never throws: whatever cannot be read
 * becomes a {@link PipelineProblem} with its file and range.
 */
import { applyExtends, extendsParents } from './extends';
import { EntryTable, Relocation, sameFootprint, type Footprint } from './jobReuse';
import { loadConfig } from './includes';
import { matrixJobs, readJob, readRules, type JobDefaults } from './jobs';
import type { Pipeline, PipelineFileReader, PipelineJob, PipelineRule } from './model';
import { ReferenceResolver } from './references';
import { declaredStages, pipelineRefusals } from './refusals';
import type { TreeProblem, YNode } from './tree';
import { Locator, present, readVariables } from './values';

/**
 * Top-level keys that are not jobs (lib/gitlab/ci/config/entry/root.rb; https://docs.gitlab.com/ci/yaml/#global-keywords):
 * `types` is the removed alias of `stages`, `spec` belongs in the header document.
 */
export const RESERVED_KEYWORDS: ReadonlySet<string> = new Set(['default', 'include', 'before_script', 'image', 'services', 'after_script', 'variables', 'stages', 'types', 'cache', 'workflow', 'spec']);

/** Reads the pipeline of `text` (the file `file`), following `include:local` through `read`. */
export function readPipeline(text: string, read: PipelineFileReader, file = '.gitlab-ci.yml'): Pipeline {
  return readPipelineReusing(text, read, file, null).pipeline;
}

/** A reading, with what the next reading of an edited version may take from it. */
export interface PipelineReading {
  readonly pipeline: Pipeline;
  /** For {@link readPipelineReusing}'s next call; null when the file was not read entry by entry. */
  readonly memo: ReadingMemo | null;
  /** The jobs taken from the previous reading: by the job now, the job it was and how its locations moved. */
  readonly reused: ReadonlyMap<PipelineJob, ReusedJob>;
}

export interface ReusedJob {
  readonly previous: PipelineJob;
  /** What the previous reading located (the job's rows, say) moved as the job moved; null when that cannot be. */
  readonly moved: <T>(value: T) => T | null;
}

/** What one reading leaves for the next: the main file's entries, what everything depended on, and each job read. */
export interface ReadingMemo {
  readonly file: string;
  readonly entries: EntryTable;
  /** The texts of the included files. */
  readonly included: ReadonlyMap<string, string>;
  /** The pipeline-wide keywords' footprint (`default:`, `variables:`, `workflow:`, `include:`, …). */
  readonly global: Footprint;
  /** By top-level key. */
  readonly jobs: ReadonlyMap<string, JobReading>;
}

/** What a top-level entry's footprint gave: its jobs (more than one with `parallel:matrix`) and the problems reading them raised. */
interface JobReading {
  readonly footprint: Footprint;
  readonly jobs: readonly PipelineJob[];
  readonly problems: readonly TreeProblem[];
}

/**
 * {@link readPipeline}, taking from `previous` (the reading of an earlier version of the same file)
 * each job whose footprint is unchanged, with its locations moved, instead of reading it again, and
 * each entry's converted tree where the entry has not moved.
 */
export function readPipelineReusing(text: string, read: PipelineFileReader, file: string, previous: ReadingMemo | null): PipelineReading {
  const problems: TreeProblem[] = [];
  const loaded = loadConfig(text, file, safeReader(read, problems, file), previous?.file === file ? previous.entries.blocks : undefined);
  problems.push(...loaded.problems);
  const locator = new Locator(loaded.texts);
  const reused = new Map<PipelineJob, ReusedJob>();
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

    const entries = loaded.blocks ? EntryTable.of(loaded.blocks, (offset) => locator.line(file, offset)) : null;
    const parentsOf = (key: string): readonly string[] => extendsParents(loaded.root.entries.get(key)?.value);
    const consulted = (key: string): readonly string[] => {
      const node = root.entries.get(key)?.value;
      return node ? resolver.consultedBy(node) : [];
    };
    const global = entries?.footprint([...RESERVED_KEYWORDS].flatMap((key) => [key, ...consulted(key)]), parentsOf) ?? [];
    const reusable = previous && entries && canReuse(previous, file, loaded.texts, global) ? { previous, relocation: new Relocation(file, previous.entries, entries) } : null;
    const memoJobs = new Map<string, JobReading>();

    const jobs: PipelineJob[] = [];
    for (const [name, entry] of root.entries) {
      if (RESERVED_KEYWORDS.has(name) || name.startsWith('.')) continue;
      const value = resolver.resolve(entry.value);
      if (value.kind !== 'map') {
        problems.push({ loc: entry.keyLoc, severity: 'warning', code: 'pipeline.notAJob', message: `${name} is not a keyword and its value is not a mapping, so it is not a job: GitLab rejects the file (jobs config should contain at least one visible job).` });
        continue;
      }
      const footprint = entries?.footprint([name, ...resolver.consultedBy(entry.value)], parentsOf) ?? [];
      const before = reusable?.previous.jobs.get(name);
      const kept = reusable && before && sameFootprint(before.footprint, footprint) ? reuse(before, reusable.relocation) : null;
      if (kept) {
        problems.push(...kept.problems);
        for (const [i, job] of kept.jobs.entries()) {
          jobs.push(job);
          reused.set(job, { previous: kept.previous[i], moved: kept.moved });
        }
        memoJobs.set(name, { footprint, jobs: kept.jobs, problems: kept.problems });
        continue;
      }
      const mark = problems.length;
      const read = matrixJobs(readJob(name, entry, value, defaults, locator, problems), value.entries.get('parallel')?.value, problems);
      jobs.push(...read);
      memoJobs.set(name, { footprint, jobs: read, problems: problems.slice(mark) });
    }
    if (loaded.incomplete) softenMissing(problems);
    // `stages:` may be in an include not read here: then no stage is known to be missing.
    const stagesNode = top('stages') ?? top('types');
    const readProblems = problems.map((p) => locator.problem(p));
    const refusals = pipelineRefusals(jobs, loaded.incomplete && !stagesNode ? undefined : declaredStages(stagesNode), !loaded.incomplete, readProblems);
    const included = new Map([...loaded.texts].filter(([name]) => name !== file));
    return {
      pipeline: {
        jobs,
        variables,
        ...(workflowRules ? { workflowRules } : {}),
        problems: [...readProblems, ...refusals.problems],
        ...(refusals.refusal ? { refusal: refusals.refusal } : {}),
      },
      memo: entries ? { file, entries, included, global, jobs: memoJobs } : null,
      reused,
    };
  } catch (err) {
    // A bug of ours must not take the editor down: report it where the file starts.
    problems.push({ loc: { file, start: 0, end: 0 }, severity: 'error', code: 'pipeline.internal', message: `The pipeline could not be read: ${err instanceof Error ? err.message : String(err)}` });
    return { pipeline: { jobs: [], variables: {}, problems: problems.map((p) => locator.problem(p)) }, memo: null, reused: new Map() };
  }
}

/** The previous reading is of the same file, with the same included texts and pipeline-wide keywords. */
function canReuse(previous: ReadingMemo, file: string, texts: ReadonlyMap<string, string>, global: Footprint): boolean {
  if (previous.file !== file || previous.included.size !== texts.size - 1) return false;
  for (const [name, text] of previous.included) if (texts.get(name) !== text) return false;
  return sameFootprint(previous.global, global);
}

/** A job of the previous reading, moved to where its entries are now; null when a location cannot be moved. */
function reuse(before: JobReading, relocation: Relocation) {
  const problems: TreeProblem[] = [];
  for (const p of before.problems) {
    const loc = relocation.loc(p.loc);
    if (!loc) return null;
    problems.push(loc === p.loc ? p : { ...p, loc });
  }
  const unmoved = relocation.unmoved(before.footprint);
  const moved = <T>(value: T): T | null => (unmoved ? value : relocation.locations(value));
  const jobs = moved(before.jobs);
  return jobs ? { jobs, problems, moved, previous: before.jobs } : null;
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
  const failed = (what: string, err: unknown) =>
    problems.push({ loc: { file, start: 0, end: 0 }, severity: 'warning', code: 'pipeline.readFailed', message: `${what} could not be read: ${err instanceof Error ? err.message : String(err)}` });
  const safe = (path: string) => {
    try {
      return read(path);
    } catch (err) {
      failed(path, err);
      return null;
    }
  };
  const list = read.list;
  if (!list) return safe;
  return Object.assign(safe, {
    list: (directory: string) => {
      try {
        return list(directory);
      } catch (err) {
        failed(`The folder ${directory || '.'}`, err);
        return [];
      }
    },
  });
}
