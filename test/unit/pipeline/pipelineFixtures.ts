// Loads the real-world-shaped pipelines of test/fixtures/pipelines and builds the variables of the
// usual scenarios with the project's own scenario code (docs/gitlab-behaviour.md#predefined-variables).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readPipeline, type Pipeline, type PipelineJob } from '../../../server/src/engine/pipeline/index';
import { rulesIfVariables, scenarioVariables, type Scenario } from '../../../server/src/engine/vars/index';

export const FIXTURES = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'pipelines');

/** A reader over one fixture folder, as the repository root of `include:local`. */
export function fixtureReader(folder: string): (file: string) => string | null {
  return (file) => {
    const abs = path.join(FIXTURES, folder, file.replace(/^\/+/, ''));
    return existsSync(abs) ? readFileSync(abs, 'utf8') : null;
  };
}

export function loadFixture(folder: string): Pipeline {
  const read = fixtureReader(folder);
  return readPipeline(read('.gitlab-ci.yml') ?? '', read);
}

export function job(pipeline: Pipeline, name: string): PipelineJob {
  const found = pipeline.jobs.find((j) => j.name === name);
  if (!found) throw new Error(`no job ${name} in ${pipeline.jobs.map((j) => j.name).join(', ')}`);
  return found;
}

const PROJECT = 'acme/shop/storefront';

/** The situations the access map simulates (https://docs.gitlab.com/ci/jobs/job_rules/#run-jobs-only-in-specific-pipeline-types). */
export const SCENARIOS = {
  defaultBranch: { projectPath: PROJECT, ref: 'main', defaultBranch: 'main', protectedRef: true },
  feature: { projectPath: PROJECT, ref: 'feature/Login-Page', defaultBranch: 'main' },
  mergeRequest: { projectPath: PROJECT, ref: 'feature/Login-Page', defaultBranch: 'main', isMergeRequest: true },
  tag: { projectPath: PROJECT, ref: 'v1.2.0', defaultBranch: 'main', isTag: true, protectedRef: true },
  schedule: { projectPath: PROJECT, ref: 'main', defaultBranch: 'main', pipelineSource: 'schedule' },
  release: { projectPath: PROJECT, ref: 'release-2.0', defaultBranch: 'main' },
} satisfies Record<string, Scenario>;

export type ScenarioName = keyof typeof SCENARIOS;

/** The variables `rules:if` sees in a scenario, plus extra user variables. */
export function variablesOf(name: ScenarioName, extra: Record<string, string> = {}): Map<string, string> {
  return rulesIfVariables(scenarioVariables({ ...SCENARIOS[name], variables: extra }));
}
