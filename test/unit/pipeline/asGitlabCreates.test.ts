// Pipelines as GitLab creates them: the access map of fixtures written from GitLab's documentation,
// one per class of pipeline the map once got wrong. docs/gitlab-behaviour.md#merge-request-pipeline-variables,
// #trigger-jobs, #pipelines-gitlab-refuses, #agents-as-gitlab-reads-them, #child-pipelines, #pipeline-reading.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { readCiAccess } from '../../../server/src/engine/access/model';
import { usedContextText, type JobAccess, type MappedAgent } from '../../../server/src/engine/pipeline/accessMap';
import { agentAsGitlabReads, agentReadingNote, DEFAULT_PROJECT_SETTINGS, pipelineAccess, type PipelineAccess } from '../../../server/src/engine/api';
import { wildcardRegExp } from '../../../server/src/engine/pipeline/includes';
import { agentcfg } from '../../support/cli';
import { FIXTURES, fixtureReader } from './pipelineFixtures';

const PROJECT = 'acme/shop';
const MERGE_REQUEST = 'merge request from feature/login';

/** The agent `acme/agents:review`, which lets the project deploy to review apps. */
const REVIEW_AGENT: MappedAgent = {
  agent: { configProjectPath: 'acme/agents', name: 'review' },
  ciAccess: readCiAccess(parseYaml(`ci_access:\n  projects:\n    - id: ${PROJECT}\n      environments: ["review/*"]\n`).value),
};

function mapOf(folder: string, agents: readonly MappedAgent[] = [REVIEW_AGENT]): PipelineAccess {
  const read = fixtureReader(folder);
  return pipelineAccess({ text: read('.gitlab-ci.yml') ?? '', file: '.gitlab-ci.yml', read, projectPath: PROJECT, settings: DEFAULT_PROJECT_SETTINGS, agents });
}

const row = (map: PipelineAccess, job: string, scenario: string) => {
  const found = map.map.find((r) => r.job === job && r.scenario === scenario);
  assert.ok(found, `no row for ${job} in ${scenario}: ${map.map.map((r) => `${r.job}/${r.scenario}`).join(', ')}`);
  return found;
};

describe('merge request pipelines carry the variables GitLab sets in every one', () => {
  // Builder::Pipeline#predefined_merge_request_variables and MergeRequest#predefined_variables.
  test('workflow `if: $CI_MERGE_REQUEST_ID` creates the pipeline; the review app is named after the IID', () => {
    const map = mapOf('merge-request-review');
    const review = row(map, 'review', MERGE_REQUEST);
    assert.equal(review.runs, true, review.reason);
    assert.equal(review.environment?.name, 'review/mr-1');
    assert.deepEqual(review.environment?.unresolved, []);
    assert.equal(review.contexts[0].authorized, true, review.contexts[0].reason);
    assert.equal(row(map, 'unit', MERGE_REQUEST).runs, true);
    // A push to a feature branch creates no pipeline: neither rule matches.
    assert.equal(row(map, 'unit', 'push to feature/login').runs, false);
  });
});

describe('trigger jobs get no KUBECONFIG', () => {
  // Ci::Bridge#runnable? is false: no runner runs a trigger job (https://docs.gitlab.com/ci/yaml/#trigger).
  test('a plain trigger job and each job of a trigger matrix run, with no context, saying why', () => {
    const map = mapOf('trigger-jobs');
    const scenario = 'push to feature/login';
    assert.equal(row(map, 'build', scenario).contexts[0].authorized, true, 'a script job of the same environment is authorized');
    for (const job of ['deploy-infra', 'deploy-regions: [eu]', 'deploy-regions: [us]']) {
      const trigger = row(map, job, scenario);
      assert.equal(trigger.runs, true);
      assert.equal(trigger.trigger, true);
      assert.deepEqual(trigger.contexts, []);
    }
    assert.deepEqual(map.diagnostics.filter((d) => d.code.startsWith('pipeline.agent')), []);
  });
});

describe('pipelines GitLab refuses are not shown as running', () => {
  // lib/gitlab/ci/yaml_processor.rb validate_job_stage!; the stages are wrapped in .pre and .post.
  test('a job in an undeclared stage: an error at its stage, and no job runs in any situation', () => {
    const map = mapOf('undeclared-stage');
    const message = 'deploy job: chosen stage deploy does not exist; available stages are .pre, build, review, .post';
    const errors = map.diagnostics.filter((d) => d.code === 'pipeline.undefinedStage');
    assert.deepEqual(errors.map((d) => [d.severity, d.message, d.range.start.line]), [['error', `${message}. GitLab does not create the pipeline.`, 17]]);
    assert.equal(map.pipeline.refusal?.message, message);
    for (const r of map.map) {
      assert.equal(r.runs, false, `${r.job} in ${r.scenario}`);
      assert.equal(r.reason, `GitLab does not create this pipeline: ${message}`);
      assert.deepEqual(r.contexts, []);
    }
  });

  test('a job without a stage is in test, which a stages list may leave out; the default stages have it', () => {
    const read = () => null;
    const refused = pipelineAccess({ text: 'stages: [build]\nlint:\n  script: make lint\n', file: '.gitlab-ci.yml', read, projectPath: PROJECT, settings: DEFAULT_PROJECT_SETTINGS, agents: [] });
    assert.equal(refused.pipeline.refusal?.message, 'lint job: chosen stage test does not exist; available stages are .pre, build, .post');
    assert.equal(refused.diagnostics.find((d) => d.code === 'pipeline.undefinedStage')?.range.start.line, 1, 'at the job, which has no stage: key');
    const accepted = pipelineAccess({ text: 'lint:\n  script: make lint\nfirst:\n  stage: .pre\n  script: echo\n', file: '.gitlab-ci.yml', read, projectPath: PROJECT, settings: DEFAULT_PROJECT_SETTINGS, agents: [] });
    assert.equal(accepted.pipeline.refusal, undefined);
  });
});

describe('what the file cannot know is said, never shown as an empty name', () => {
  // KUBE_CONTEXT from the CI/CD settings; inputs replaced as GitLab interpolates them
  // (lib/gitlab/ci/interpolation/block.rb), with the includer's values over the defaults.
  test('a context from a variable without a value here, or from an input given only at run time, is set outside the file', () => {
    const map = mapOf('contexts-set-outside');
    const deploy = row(map, 'deploy', 'push to feature/login');
    assert.deepEqual(
      deploy.usedContexts.map((u) => [u.context, u.setOutside]),
      [
        [null, { variables: ['KUBE_CONTEXT'], inputs: [] }],
        ['acme/agents:review', undefined],
        ['acme/agents:review', undefined],
      ],
      'the input the including file gives is read',
    );
    const smoke = row(map, 'smoke', 'push to feature/login');
    assert.deepEqual(smoke.usedContexts.map(usedContextText), ['input "cluster-context": set outside the file (given where the file is included, or when the pipeline is run)']);
    assert.equal(usedContextText(deploy.usedContexts[0]), '$KUBE_CONTEXT: set outside the file (CI/CD settings)');
    assert.deepEqual(map.diagnostics.filter((d) => d.code === 'pipeline.unknownContext'), [], 'no "kubectl would fail" for a name not known here');
  });

  test('the default of an input applies where nothing gives the input', () => {
    const text = 'spec:\n  inputs:\n    ctx:\n      default: acme/agents:review\n---\ndeploy:\n  script:\n    - kubectl --context $[[ inputs.ctx ]] get pods\n  environment: review/x\n';
    const map = pipelineAccess({ text, file: '.gitlab-ci.yml', read: () => null, projectPath: PROJECT, settings: DEFAULT_PROJECT_SETTINGS, agents: [REVIEW_AGENT] });
    assert.equal(row(map, 'deploy', 'push to main').usedContexts[0].context, 'acme/agents:review');
  });
});

describe('agents as GitLab reads them', () => {
  // The agent server reads only config.yaml and refuses one that does not parse; Rails authorizes
  // every agent for its own project whatever its configuration (Clusters::Agents::Authorizations::CiAccess::Finder#implicit_authorizations).
  test('an agent with only config.yml still authorizes its own project; a rejected config is marked', () => {
    const root = path.join(FIXTURES, 'agents-as-gitlab-reads');
    const { code, stdout, stderr } = agentcfg('pipeline', path.join(root, '.gitlab-ci.yml'), '--project', PROJECT, '--agent-project', PROJECT, '--format', 'json');
    assert.equal(code, 0, stderr);
    const deploy = (JSON.parse(stdout) as JobAccess[]).find((r) => r.job === 'deploy' && r.scenario === 'push to main')!;
    const byName = new Map(deploy.contexts.map((c) => [c.context, c]));
    const deployer = byName.get(`${PROJECT}:deployer`)!;
    assert.deepEqual([deployer.authorized, deployer.via], [true, 'implicit']);
    assert.deepEqual(deployer.problems, ['agent "deployer" has no configuration file (GitLab reads only config.yaml, not config.yml): it authorizes only its own project']);
    const conflicted = byName.get(`${PROJECT}:conflicted`)!;
    assert.equal(conflicted.authorized, true, 'its own project, implicitly, whatever the file says');
    assert.deepEqual(conflicted.problems, [], 'the implicit authorization does not depend on the file');
    assert.doesNotMatch(stderr, /kubectl would fail/);
    // For another project of the group, the rejected configuration's answer is not GitLab's.
    const other = agentAsGitlabReads({ configProjectPath: 'acme/agents', name: 'conflicted' }, readFileSync(path.join(root, '.gitlab/agents/conflicted/config.yaml'), 'utf8'));
    assert.equal(other.reading?.kind, 'rejected');
    assert.match(agentReadingNote(other)!, /^GitLab's agent rejects the configuration of "conflicted" \(line 3: .+\) and keeps the authorizations of the last one it accepted, which cannot be known here/);
  });
});

describe('include:local wildcards are expanded from the files present', () => {
  // Repository#search_files_by_wildcard_path: `**` any characters, `*` any but `/`.
  test('stages/**.yml includes the files of every subfolder; a pattern matching nothing says so', () => {
    const read = Object.assign(fixtureReader('include-wildcards'), { list: listFixture('include-wildcards') });
    const text = read('.gitlab-ci.yml')!;
    const map = pipelineAccess({ text, file: '.gitlab-ci.yml', read, projectPath: PROJECT, settings: DEFAULT_PROJECT_SETTINGS, agents: [REVIEW_AGENT] });
    assert.deepEqual(map.pipeline.jobs.map((j) => [j.name, j.location.file]), [
      ['review', 'stages/deploy/review.yml'],
      ['unit', 'stages/test/unit.yml'],
    ]);
    assert.equal(row(map, 'review', 'push to feature/login').contexts[0].authorized, true);
    assert.deepEqual(map.diagnostics.map((d) => [d.code, d.message]), [['pipeline.includeNoMatch', 'include:local (extra/*.yml) matches no file here, so it includes nothing.']]);
    assert.deepEqual(['a/*.yml', 'a/**.yml', 'a/**/*.yml'].map((p) => ['a/x.yml', 'a/b/x.yml'].filter((f) => wildcardRegExp(p).test(f))), [['a/x.yml'], ['a/x.yml', 'a/b/x.yml'], ['a/b/x.yml']]);
  });
});

/** The files of a fixture folder under `directory`, as a repository lists them. */
function listFixture(folder: string): (directory: string) => string[] {
  const base = path.join(FIXTURES, folder);
  return (directory) => {
    if (!existsSync(path.join(base, directory))) return [];
    const entries = readdirSync(path.join(base, directory), { recursive: true, withFileTypes: true }) as Dirent[];
    return entries.filter((e) => e.isFile()).map((e) => path.relative(base, path.join(e.parentPath, e.name)).replaceAll(path.sep, '/'));
  };
}

describe('child pipelines are mapped under their trigger job', () => {
  // Ci::Bridge#child_params: source parent_pipeline, the parent's ref; the trigger job's YAML
  // variables (with its matrix values) forwarded by default (Downstream::Generator).
  test('trigger:include:local with a matrix: one child per matrix job, with its values; a dynamic child is named', () => {
    const map = mapOf('child-pipelines');
    const children = map.children.filter((r) => r.scenario === 'push to feature/login');
    assert.deepEqual(
      children.map((r) => [r.parent, r.job, r.runs, r.environment?.name, r.contexts[0]?.authorized]),
      [
        ['deploy-regions: [eu]', 'deploy', true, 'review/shop-eu', true],
        ['deploy-regions: [us]', 'deploy', true, 'review/shop-us', true],
      ],
    );
    assert.equal(children[0].location.file, 'ci/deploy-child.yml');
    const dynamic = map.diagnostics.find((d) => d.code === 'pipeline.childNotResolved');
    assert.equal(dynamic?.message, 'trigger:include:artifact (generated-config.yml) is a dynamic child pipeline: its configuration is made by a job at run time, so its jobs cannot be shown here.');
    assert.equal(dynamic?.range.start.line, 19);
  });
});

describe('other errors GitLab raises before creating a pipeline', () => {
  const mapText = (text: string) => pipelineAccess({ text, file: '.gitlab-ci.yml', read: () => null, projectPath: PROJECT, settings: DEFAULT_PROJECT_SETTINGS, agents: [REVIEW_AGENT] });
  // yaml_processor.rb validate_job_dependency!: "<job> job: undefined need: <name>".
  test('a need of a job the pipeline does not have: an error at the need, and no pipeline', () => {
    const map = mapText('build:\n  stage: build\n  script: make\ndeploy:\n  stage: deploy\n  needs: [biuld, {job: lint, optional: true}]\n  script: kubectl get pods\n  environment: review/x\n');
    assert.equal(map.pipeline.refusal?.message, 'deploy job: undefined need: biuld');
    assert.deepEqual(map.diagnostics.filter((d) => d.code === 'pipeline.undefinedNeed').map((d) => [d.range.start.line, d.range.start.character]), [[5, 10]]);
    assert.ok(map.map.every((r) => r.runs === false));
    const matrix = mapText('build:\n  stage: build\n  script: make\n  parallel:\n    matrix:\n      - OS: [a, b]\ndeploy:\n  stage: deploy\n  needs: [build]\n  script: make\n');
    assert.equal(matrix.pipeline.refusal, undefined, 'a need of a matrix job by its name is fine');
  });

  // extendable/entry.rb: "<key>: circular dependency detected in `extends`".
  test('an extends cycle: GitLab creates no pipeline, and the map says so with its message', () => {
    const map = mapText('a:\n  extends: b\n  script: x\nb:\n  extends: a\n  script: y\n');
    assert.match(map.pipeline.refusal?.message ?? '', /^[ab]: circular dependency detected in `extends`/);
    assert.ok(map.map.every((r) => r.runs === false && /^GitLab does not create this pipeline: [ab]: circular dependency/.test(r.reason)));
  });
});

describe('each problem once', () => {
  test('a warning in a job of a parallel:matrix is reported once, not once per matrix job', () => {
    const text = 'deploy:\n  script:\n    - kubectl --context acme/agents:reveiw get pods\n  environment: review/x\n  parallel:\n    matrix:\n      - R: [a, b, c]\n';
    const map = pipelineAccess({ text, file: '.gitlab-ci.yml', read: () => null, projectPath: PROJECT, settings: DEFAULT_PROJECT_SETTINGS, agents: [REVIEW_AGENT] });
    assert.equal(map.pipeline.jobs.length, 3);
    assert.deepEqual(map.diagnostics.map((d) => d.code), ['pipeline.unknownContext']);
  });
});

describe('variables forwarded to a child are not forwarded again', () => {
  // https://docs.gitlab.com/ci/yaml/#triggerforward: "Forwarded variables do not get forwarded
  // again in nested downstream pipelines by default".
  test('a grandchild gets its own trigger job\'s variables, not those its parent received', () => {
    const files: Record<string, string> = {
      'ci/child.yml': 'grand:\n  variables:\n    B: b\n  trigger:\n    include: ci/grandchild.yml\n',
      'ci/grandchild.yml': 'deploy:\n  script: kubectl get pods\n  environment: review/$A-$B\n',
    };
    const text = 'child:\n  variables:\n    A: a\n  trigger:\n    include: ci/child.yml\n';
    const map = pipelineAccess({ text, file: '.gitlab-ci.yml', read: (file) => files[file] ?? null, projectPath: PROJECT, settings: DEFAULT_PROJECT_SETTINGS, agents: [REVIEW_AGENT] });
    const deploy = map.children.find((r) => r.job === 'deploy' && r.scenario === 'push to main');
    assert.equal(deploy?.parent, 'grand');
    assert.equal(deploy?.environment?.name, 'review/-b');
    assert.deepEqual(deploy?.environment?.unresolved, ['A']);
  });
});
