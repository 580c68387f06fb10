// Reading real-world-shaped pipelines: jobs after include:local, extends, !reference, anchors and
// default:, with their rules, environments and kubectl contexts. Each expectation cites the GitLab
// documentation it follows.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { evaluatePipeline, readPipeline, type SourceLocation } from '../../../server/src/engine/pipeline/index';
import { FIXTURES, job, loadFixture, variablesOf } from './pipelineFixtures';

/** The text a location covers in a fixture folder. */
function textAt(folder: string, location: SourceLocation): string {
  const lines = readFileSync(path.join(FIXTURES, folder, location.file), 'utf8').split('\n');
  const { start, end } = location.range;
  if (start.line === end.line) return lines[start.line].slice(start.character, end.character);
  return [lines[start.line].slice(start.character), ...lines.slice(start.line + 1, end.line), lines[end.line].slice(0, end.character)].join('\n');
}

describe('review apps (https://docs.gitlab.com/ci/review_apps/, https://docs.gitlab.com/ci/environments/#stop-an-environment)', () => {
  const pipeline = loadFixture('review-apps');

  test('jobs are the top-level keys that are not global keywords, in file order (https://docs.gitlab.com/ci/yaml/#global-keywords)', () => {
    assert.deepEqual(pipeline.jobs.map((j) => j.name), ['build', 'review', 'stop_review', 'staging', 'production']);
    assert.deepEqual(pipeline.problems, []);
  });

  test('global variables are read as strings (https://docs.gitlab.com/ci/yaml/#default-variables)', () => {
    assert.deepEqual(pipeline.variables, { KUBE_AGENT: 'acme/infra/agents:production-agent', APP_NAME: 'storefront' });
  });

  const rows: Array<[string, string, unknown]> = [
    // https://docs.gitlab.com/ci/yaml/#environmentname, https://docs.gitlab.com/ci/yaml/#environmenton_stop
    ['review', 'environment name, not yet expanded', 'review/$CI_COMMIT_REF_SLUG'],
    ['review', 'on_stop', 'stop_review'],
    // https://docs.gitlab.com/ci/yaml/#environmentkubernetes: CI/CD variables are allowed in agent
    ['review', 'kubernetes agent', '$KUBE_AGENT'],
    // https://docs.gitlab.com/ci/yaml/#environmentaction
    ['stop_review', 'action', 'stop'],
    ['review', 'action (absent: start by default)', undefined],
    // https://docs.gitlab.com/ci/yaml/#environmentdeployment_tier
    ['staging', 'deployment tier', 'staging'],
    ['staging', 'legacy kubernetes namespace', 'storefront-staging'],
    ['production', 'managed_resources.enabled', false],
    ['production', 'dashboard namespace (18.4)', 'storefront'],
    ['production', 'environment from a job variable', '$DEPLOY_TIER'],
  ];
  for (const [name, what, expected] of rows) {
    test(`${name}: ${what}`, () => {
      const env = job(pipeline, name).environment!;
      const actual = {
        'environment name, not yet expanded': env.name,
        on_stop: env.onStop,
        'kubernetes agent': env.kubernetes?.agent,
        action: env.action,
        'action (absent: start by default)': env.action,
        'deployment tier': env.deploymentTier,
        'legacy kubernetes namespace': env.kubernetes?.namespace,
        'managed_resources.enabled': env.kubernetes?.managedResources,
        'dashboard namespace (18.4)': env.kubernetes?.dashboardNamespace,
        'environment from a job variable': env.name,
      }[what];
      assert.equal(actual, expected);
    });
  }

  test('a job without environment has none; stage defaults to test (https://docs.gitlab.com/ci/yaml/#stage)', () => {
    assert.equal(job(pipeline, 'build').environment, undefined);
    assert.equal(job(pipeline, 'build').stage, 'build');
  });

  test('kubectl contexts are found in scripts, with the range of the name (https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/#update-your-gitlab-ciyml-file-to-run-kubectl-commands)', () => {
    const contexts = (name: string) => job(pipeline, name).kubeContexts.map((c) => [c.context, textAt('review-apps', c.location)]);
    assert.deepEqual(contexts('review'), [['$KUBE_AGENT', '$KUBE_AGENT']]);
    assert.deepEqual(contexts('stop_review'), [['$KUBE_AGENT', '$KUBE_AGENT']]);
    assert.deepEqual(contexts('staging'), [['acme/infra/agents:production-agent', 'acme/infra/agents:production-agent']]);
    // A literal block: the typo on its second line is located on that line.
    const production = job(pipeline, 'production').kubeContexts;
    assert.deepEqual(production.map((c) => c.context), ['acme/infra/agents:production-agent', 'acme/infra/agents:production-agnet']);
    assert.equal(textAt('review-apps', production[1].location), 'acme/infra/agents:production-agnet');
    assert.equal(production[1].location.range.start.line, production[0].location.range.start.line + 1);
  });

  test('helm --kube-context and a job KUBE_CONTEXT variable name contexts too (https://docs.gitlab.com/user/clusters/agent/ci_cd_workflow/#environments-that-use-auto-devops)', () => {
    const p = readPipeline('auto:\n  variables:\n    KUBE_CONTEXT: acme/infra/agents:auto\n  script:\n    - helm upgrade --install app chart/ --kube-context=acme/infra/agents:helm; kubectl get pods --context x\n', () => null);
    assert.deepEqual(p.jobs[0].kubeContexts.map((c) => c.context), ['acme/infra/agents:helm', 'x', 'acme/infra/agents:auto']);
    assert.deepEqual(p.jobs[0].kubeContexts.map((c) => c.location.range.start.line), [4, 4, 2]);
  });

  test('a kubectl command continued over lines with a backslash', () => {
    const p = readPipeline('j:\n  script:\n    - |\n      kubectl apply \\\n        --context acme/infra/agents:prod \\\n        -f k8s/\n', () => null);
    assert.deepEqual(p.jobs[0].kubeContexts.map((c) => [c.context, c.location.range.start.line]), [['acme/infra/agents:prod', 4]]);
  });

  test('rules keep their if and when, and where they are (https://docs.gitlab.com/ci/yaml/#rules)', () => {
    const rules = job(pipeline, 'production').rules!;
    assert.deepEqual(rules.map((r) => [r.if, r.when]), [['$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH', 'manual'], ['$CI_COMMIT_TAG =~ /^v\\d+/', 'manual']]);
    assert.match(textAt('review-apps', rules[0].location), /^if: \$CI_COMMIT_BRANCH == \$CI_DEFAULT_BRANCH\n\s+when: manual$/);
  });
});

describe('extends and anchors (https://docs.gitlab.com/ci/yaml/#extends, https://docs.gitlab.com/ci/yaml/yaml_optimization/)', () => {
  const pipeline = loadFixture('extends-chain');

  test('hidden jobs are templates, not jobs (https://docs.gitlab.com/ci/jobs/#hide-a-job)', () => {
    assert.deepEqual(pipeline.jobs.map((j) => j.name), ['deploy_app', 'deploy_manual', 'anchored', 'no_default']);
    assert.deepEqual(pipeline.problems, []);
  });

  test('multi-level extends deep-merges mappings, the job winning (https://docs.gitlab.com/ci/yaml/yaml_optimization/#merge-details)', () => {
    const app = job(pipeline, 'deploy_app');
    assert.equal(app.stage, 'deploy');
    assert.deepEqual(app.variables, { KUBE_NAMESPACE: 'app', REPLICAS: '3', TIMEOUT: '1.0' });
    assert.equal(app.environment?.name, 'production');
    assert.equal(app.environment?.kubernetes?.agent, 'acme/infra/agents:production-agent');
    assert.deepEqual(app.rules?.map((r) => r.if), ['$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH']);
  });

  test('a before_script from extends replaces default: before_script (https://docs.gitlab.com/ci/yaml/#default)', () => {
    assert.deepEqual(job(pipeline, 'deploy_app').kubeContexts.map((c) => c.context), ['acme/infra/agents:production-agent']);
  });

  test('with several parents the later wins, and lists are replaced, not merged (https://docs.gitlab.com/ci/yaml/#extends)', () => {
    const manual = job(pipeline, 'deploy_manual');
    assert.equal(manual.when, 'manual');
    assert.deepEqual(manual.rules?.map((r) => r.if), ['$CI_COMMIT_TAG']);
  });

  test('a merge key copies the anchor; a key written after it replaces the whole value (https://docs.gitlab.com/ci/yaml/yaml_optimization/#yaml-anchors-for-scripts)', () => {
    const anchored = job(pipeline, 'anchored');
    assert.equal(anchored.stage, 'test');
    assert.deepEqual(anchored.variables, { KUBE_NAMESPACE: 'anchored' });
    assert.deepEqual(anchored.kubeContexts.map((c) => c.context), ['acme/infra/agents:production-agent']);
  });

  test('inherit:default false drops default before_script; inherit:variables lists the globals kept (https://docs.gitlab.com/ci/yaml/#inherit)', () => {
    const noDefault = job(pipeline, 'no_default');
    assert.deepEqual(noDefault.kubeContexts.map((c) => c.context), ['acme/infra/agents:other']);
    assert.deepEqual(noDefault.inheritVariables, ['APP']);
    assert.equal(job(pipeline, 'deploy_app').inheritVariables, undefined);
  });
});

describe('include (https://docs.gitlab.com/ci/yaml/#include)', () => {
  const pipeline = loadFixture('includes');

  test('local files are read, nested includes too, relative to the repository root (https://docs.gitlab.com/ci/yaml/includes/#use-nested-includes)', () => {
    assert.deepEqual(pipeline.jobs.map((j) => j.name), ['deploy', 'lint', 'unit']);
    assert.equal(job(pipeline, 'lint').location.file, 'ci/nested/lint.yml');
  });

  test('the including file is merged over the included ones, mappings deep-merged (https://docs.gitlab.com/ci/yaml/includes/#merge-method-for-include)', () => {
    const deploy = job(pipeline, 'deploy');
    assert.deepEqual(deploy.variables, { FROM_MAIN: 'yes', ONLY_INCLUDE: 'kept' });
    assert.equal(deploy.environment?.location.file, 'ci/deploy.yml');
    assert.equal(deploy.kubeContexts[0].location.file, 'ci/deploy.yml');
    assert.deepEqual(pipeline.variables, { FROM_INCLUDE: 'deploy', MAIN: 'main-file' });
  });

  test('other include kinds, wildcards and missing files are reported where the include is written', () => {
    const problems = pipeline.problems.map((p) => [p.code, p.severity, p.location.file, p.location.range.start.line]);
    assert.deepEqual(problems, [
      ['pipeline.includeNotResolved', 'information', '.gitlab-ci.yml', 5], // remote
      ['pipeline.includeNotResolved', 'information', '.gitlab-ci.yml', 6], // template
      ['pipeline.includeNotResolved', 'information', '.gitlab-ci.yml', 7], // project
      ['pipeline.includeNotResolved', 'information', '.gitlab-ci.yml', 9], // component
      ['pipeline.includeNotResolved', 'information', '.gitlab-ci.yml', 10], // https://docs.gitlab.com/ci/yaml/includes/#use-includelocal-with-wildcard-file-paths
      ['pipeline.includeMissing', 'error', '.gitlab-ci.yml', 11],
    ]);
    assert.match(pipeline.problems[0].message, /include:remote \(https:\/\/example\.com\/ci\/security\.yml\) is not resolved here/);
  });

  test('the short forms: a string and a list of strings are local unless they are URLs (https://docs.gitlab.com/ci/yaml/#includelocal)', () => {
    const files: Record<string, string> = { 'a.yml': 'a_job: {script: x}\n', 'b.yml': 'b_job: {script: x}\n' };
    const read = (f: string) => files[f.replace(/^\//, '')] ?? null;
    assert.deepEqual(readPipeline("include: 'a.yml'\n", read).jobs.map((j) => j.name), ['a_job']);
    assert.deepEqual(readPipeline("include: ['/a.yml', b.yml]\n", read).jobs.map((j) => j.name), ['a_job', 'b_job']);
    assert.deepEqual(readPipeline('include: {local: b.yml}\n', read).jobs.map((j) => j.name), ['b_job']);
    const remote = readPipeline("include: 'https://example.com/x.yml'\n", read);
    assert.deepEqual(remote.problems.map((p) => p.code), ['pipeline.includeNotResolved']);
  });
});

describe('!reference (https://docs.gitlab.com/ci/yaml/yaml_optimization/#reference-tags)', () => {
  const pipeline = loadFixture('references');

  test('references resolve to the keys they name; rules lists are flattened (https://docs.gitlab.com/ci/jobs/job_rules/#reuse-rules-in-different-jobs)', () => {
    const deploy = job(pipeline, 'deploy');
    assert.deepEqual(pipeline.problems, []);
    assert.deepEqual(deploy.variables, { TARGET: 'production' });
    assert.deepEqual(deploy.rules?.map((r) => [r.if, r.when]), [['$CI_PIPELINE_SOURCE == "merge_request_event"', 'manual'], ['$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH', undefined]]);
    assert.deepEqual(deploy.kubeContexts.map((c) => [c.context, c.location.range.start.line]), [['acme/infra/agents:production-agent', 3]]);
  });

  test('a reference to a key that holds references is resolved in turn (nested references)', () => {
    const nested = job(pipeline, 'nested');
    assert.deepEqual(nested.kubeContexts.map((c) => c.context), ['acme/infra/agents:production-agent']);
    assert.equal(nested.rules?.length, 2);
  });
});

describe('values as GitLab reads them', () => {
  const rows: Array<[string, string, Record<string, string>]> = [
    // https://docs.gitlab.com/ci/yaml/#variables: numbers and booleans become strings as Ruby prints them.
    ['integers and floats', 'A: 1\nB: 1.50\nC: 2.0\n', { A: '1', B: '1.5', C: '2.0' }],
    // https://docs.gitlab.com/ci/yaml/#variablesdescription: the value of the mapping form.
    ['{value, description}', 'A: {value: prod, description: Where to deploy}\n', { A: 'prod' }],
    // Psych reads YAML 1.1: yes/no are booleans, y/n are strings.
    ['YAML 1.1 booleans', 'A: yes\nB: n\nC: "yes"\n', { A: 'true', B: 'n', C: 'yes' }],
  ];
  for (const [what, yaml, expected] of rows) {
    test(`global variables: ${what}`, () => {
      const text = `variables:\n${yaml.replace(/^/gm, '  ').trimEnd()}\njob:\n  script: x\n`;
      assert.deepEqual(readPipeline(text, () => null).variables, expected);
    });
  }

  test('a spec: header document comes before the configuration (https://docs.gitlab.com/ci/yaml/#spec)', () => {
    const p = readPipeline('spec:\n  inputs:\n    env: {default: prod}\n---\ndeploy:\n  script: x\n', () => null);
    assert.deepEqual(p.jobs.map((j) => j.name), ['deploy']);
  });

  test('a trigger job is marked: it gets no KUBECONFIG (https://docs.gitlab.com/ci/yaml/#trigger)', () => {
    const p = readPipeline('downstream:\n  trigger: acme/shop/payments\nbuild:\n  script: x\n', () => null);
    assert.deepEqual(p.jobs.map((j) => [j.name, j.trigger]), [['downstream', true], ['build', undefined]]);
  });

  test('only as a mapping without refs keeps the default refs branches and tags (lib/gitlab/ci/config/entry/policy.rb)', () => {
    const p = readPipeline('job:\n  script: x\n  only:\n    variables: [$A]\n', () => null);
    assert.deepEqual(p.jobs[0].only?.refs, ['branches', 'tags']);
  });
});

describe('parallel:matrix (https://docs.gitlab.com/ci/yaml/#parallelmatrix)', () => {
  const text = [
    'deploystacks:',
    '  stage: deploy',
    '  script:',
    '    - kubectl --context "$AGENT" apply -f $STACK/',
    '  variables:',
    '    AGENT: acme/infra/agents:$PROVIDER',
    '  parallel:',
    '    matrix:',
    '      - PROVIDER: aws',
    '        STACK: [monitoring, app1]',
    '      - PROVIDER: [gcp, vultr]',
    '        STACK: data',
    '  environment: $PROVIDER/$STACK',
    '  rules:',
    '    - if: $PROVIDER == "vultr"',
    '      when: never',
    '    - when: on_success',
    '',
  ].join('\n');
  const pipeline = readPipeline(text, () => null);

  test('one job per combination, named as GitLab names them (https://docs.gitlab.com/ci/jobs/job_control/#run-a-one-dimensional-matrix-of-parallel-jobs)', () => {
    assert.deepEqual(pipeline.jobs.map((j) => j.name), ['deploystacks: [aws, monitoring]', 'deploystacks: [aws, app1]', 'deploystacks: [gcp, data]', 'deploystacks: [vultr, data]']);
    assert.deepEqual(pipeline.jobs[2].variables, { AGENT: 'acme/infra/agents:$PROVIDER', PROVIDER: 'gcp', STACK: 'data' });
    assert.ok(pipeline.jobs.every((j) => j.location.range.start.line === 0));
  });

  test('rules and environment names see each job\'s matrix values (https://docs.gitlab.com/ci/jobs/job_control/#use-matrix-variables-in-rules)', () => {
    const evaluation = evaluatePipeline(pipeline, variablesOf('defaultBranch'));
    assert.deepEqual(pipeline.jobs.map((j) => evaluation.job(j).runs), [true, true, true, false]);
    assert.deepEqual(pipeline.jobs.map((j) => evaluation.environmentName(j).name), ['aws/monitoring', 'aws/app1', 'gcp/data', 'vultr/data']);
    assert.equal(evaluation.expand(pipeline.jobs[2].kubeContexts[0].context, pipeline.jobs[2]).name, 'acme/infra/agents:gcp');
  });

  test('more than 200 jobs is refused by GitLab; the first 200 are read', () => {
    const big = readPipeline('j:\n  script: x\n  parallel:\n    matrix:\n      - A: [' + Array.from({ length: 15 }, (_, i) => i).join(',') + ']\n        B: [' + Array.from({ length: 15 }, (_, i) => i).join(',') + ']\n', () => null);
    assert.equal(big.jobs.length, 200);
    assert.deepEqual(big.problems.map((p) => p.code), ['pipeline.matrixTooLarge']);
  });
});
