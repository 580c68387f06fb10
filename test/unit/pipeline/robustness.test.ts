// Whatever the file holds, readPipeline answers with problems at a file and range, never a throw, and
// its work stays linear: malformed YAML, loops in extends, include and !reference, deep nesting,
// 10,000 jobs. The time caps are only a safety net against hanging, not performance assertions.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { jobDecision, MAX_EXTENDS_ANCESTORS, readPipeline, type Pipeline } from '../../../server/src/engine/pipeline/index';
import { variablesOf } from './pipelineFixtures';

const none = (): null => null;

function codes(pipeline: Pipeline): string[] {
  return pipeline.problems.map((p) => p.code);
}

describe('malformed input', () => {
  const rows: Array<[string, string, string]> = [
    ['unclosed flow mapping', 'job: {script: x\n', 'pipeline.yamlSyntax'],
    ['bad indentation', 'job:\n  script: x\n bad: y\n', 'pipeline.yamlSyntax'],
    ['a list at the top', '- a\n- b\n', 'pipeline.notAMapping'],
    ['a job that is a string', 'job: echo\n', 'pipeline.notAJob'],
    ['rules that are not a list', 'job:\n  script: x\n  rules: {if: $A}\n', 'pipeline.rulesShape'],
    ['an environment list', 'job:\n  script: x\n  environment: [a]\n', 'pipeline.environmentShape'],
    ['only as a string', 'job:\n  script: x\n  only: main\n', 'pipeline.refFilterShape'],
  ];
  for (const [what, text, code] of rows) {
    test(`${what}: ${code}`, () => {
      const pipeline = readPipeline(text, none);
      assert.ok(codes(pipeline).includes(code), JSON.stringify(pipeline.problems));
      for (const p of pipeline.problems) assert.equal(p.location.file, '.gitlab-ci.yml');
    });
  }

  test('a syntax error is reported at its line (0-based)', () => {
    const pipeline = readPipeline('a:\n  script: x\nb: [\n', none);
    const problem = pipeline.problems.find((p) => p.code === 'pipeline.yamlSyntax')!;
    assert.ok(problem.location.range.start.line >= 2);
  });

  test('empty, comment-only and binary texts', () => {
    for (const text of ['', '# nothing\n', '\u0000\u0001\u0002', '---\n...\n']) {
      const pipeline = readPipeline(text, none);
      assert.deepEqual(pipeline.jobs, []);
    }
  });

  test('a reader that throws is a problem, not a throw', () => {
    const pipeline = readPipeline('include: a.yml\n', () => {
      throw new Error('EACCES');
    });
    assert.ok(codes(pipeline).includes('pipeline.readFailed'));
  });
});

describe('loops and depth', () => {
  test('cyclic extends (https://docs.gitlab.com/ci/yaml/#extends)', () => {
    const pipeline = readPipeline('a:\n  extends: b\n  script: x\nb:\n  extends: a\n  script: y\nc:\n  extends: c\n  script: z\n', none);
    assert.deepEqual(pipeline.jobs.map((j) => j.name), ['a', 'b', 'c']);
    assert.ok(codes(pipeline).filter((c) => c === 'pipeline.extendsLoop').length >= 2);
  });

  test('an unknown parent (https://docs.gitlab.com/ci/yaml/#extends)', () => {
    const pipeline = readPipeline('a:\n  extends: .missing\n  script: x\n', none);
    assert.deepEqual(codes(pipeline), ['pipeline.extendsUnknown']);
    assert.equal(pipeline.problems[0].location.range.start.line, 1);
  });

  test(`more than ${MAX_EXTENDS_ANCESTORS} ancestors is too deep; ${MAX_EXTENDS_ANCESTORS} is fine (lib/gitlab/ci/config/extendable/entry.rb)`, () => {
    const chain = (levels: number) => {
      let text = 'stages: [deep]\n.t0:\n  stage: deep\n';
      for (let i = 1; i <= levels; i++) text += `.t${i}:\n  extends: .t${i - 1}\n`;
      return `${text}job:\n  extends: .t${levels}\n  script: x\n`;
    };
    const ok = readPipeline(chain(MAX_EXTENDS_ANCESTORS - 1), none);
    assert.deepEqual(codes(ok), []);
    assert.equal(ok.jobs[0].stage, 'deep');
    assert.deepEqual(codes(readPipeline(chain(MAX_EXTENDS_ANCESTORS), none)), ['pipeline.extendsTooDeep']);
  });

  test('an extends chain thousands long is walked without recursion', () => {
    let text = 'stages: [deep]\n.t0:\n  stage: deep\n';
    for (let i = 1; i < 20_000; i++) text += `.t${i}:\n  extends: .t${i - 1}\n`;
    const pipeline = readPipeline(`${text}job:\n  extends: .t19999\n  script: x\n`, none);
    assert.equal(pipeline.jobs[0].stage, 'deep');
    assert.deepEqual(codes(pipeline), ['pipeline.extendsTooDeep']);
  });

  test('!reference loops and missing targets (https://docs.gitlab.com/ci/yaml/yaml_optimization/#reference-tags)', () => {
    const loop = readPipeline('.a:\n  script: !reference [.b, script]\n.b:\n  script: !reference [.a, script]\njob:\n  script: !reference [.a, script]\n', none);
    assert.ok(codes(loop).includes('pipeline.referenceLoop'), JSON.stringify(loop.problems));
    const missing = readPipeline('job:\n  script: !reference [.nothing, script]\n', none);
    assert.deepEqual(codes(missing), ['pipeline.referenceMissing']);
    const invalid = readPipeline('job:\n  script: !reference [1, {a: b}]\n', none);
    assert.deepEqual(codes(invalid), ['pipeline.referenceInvalid']);
  });

  test('references nested more than 10 levels are refused', () => {
    let text = '.r0:\n  script: [echo]\n';
    for (let i = 1; i <= 12; i++) text += `.r${i}:\n  script: !reference [.r${i - 1}, script]\n`;
    const pipeline = readPipeline(`${text}job:\n  script: !reference [.r12, script]\n`, none);
    assert.ok(codes(pipeline).includes('pipeline.referenceTooDeep'));
  });

  test('include loops stop (https://docs.gitlab.com/ci/yaml/includes/#use-nested-includes)', () => {
    const files: Record<string, string> = { 'a.yml': 'include: b.yml\na: {script: x}\n', 'b.yml': 'include: /a.yml\nb: {script: x}\n' };
    const pipeline = readPipeline('include: a.yml\n', (f) => files[f] ?? null);
    assert.deepEqual(pipeline.jobs.map((j) => j.name).sort(), ['a', 'b']);
    assert.deepEqual(codes(pipeline), ['pipeline.includeLoop']);
    assert.equal(pipeline.problems[0].location.file, 'b.yml');
  });

  test('deep nesting is refused before it can exhaust the stack', () => {
    const deep = `job:\n  script: x\n  variables: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    const pipeline = readPipeline(deep, none);
    assert.ok(codes(pipeline).includes('pipeline.yamlTooDeep'));
  });

  test('aliases that multiply (billion laughs) stay linear', () => {
    let text = 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n';
    for (let i = 1; i < 30; i++) text += `a${i}: &a${i} [*a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}, *a${i - 1}]\n`;
    const started = Date.now();
    const pipeline = readPipeline(`${text}job:\n  script: *a29\n`, none);
    assert.ok(Date.now() - started < 30_000);
    assert.ok(pipeline.jobs.length >= 1 || pipeline.problems.length > 0);
  });
});

describe('size', () => {
  test('10,000 jobs with extends, references and rules are read and decided', () => {
    let text = '.base:\n  stage: deploy\n  rules:\n    - if: $CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH\n      when: manual\n';
    for (let i = 0; i < 10_000; i++) {
      text += `job${i}:\n  extends: .base\n  script:\n    - kubectl --context acme/infra/agents:a${i} apply -f .\n  environment:\n    name: env-${i}\n`;
    }
    const started = Date.now();
    const pipeline = readPipeline(text, none);
    const vars = variablesOf('defaultBranch');
    const decisions = pipeline.jobs.map((j) => jobDecision(pipeline, j, vars));
    assert.ok(Date.now() - started < 60_000, 'safety net only');
    assert.equal(pipeline.jobs.length, 10_000);
    assert.deepEqual(codes(pipeline), []);
    assert.ok(decisions.every((d) => d.runs === true && d.when === 'manual'));
    assert.equal(pipeline.jobs[9_999].kubeContexts[0].context, 'acme/infra/agents:a9999');
  });
});

describe('with includes not resolved here', () => {
  test('a missing extends parent or !reference target may be in them: information, not error', () => {
    const text = "include:\n  - template: Auto-DevOps.gitlab-ci.yml\ndeploy:\n  extends: .auto-deploy\n  script:\n    - !reference [.auto-deploy, script]\n";
    const pipeline = readPipeline(text, none);
    assert.deepEqual(pipeline.problems.map((p) => [p.code, p.severity]), [
      ['pipeline.includeNotResolved', 'information'],
      ['pipeline.extendsUnknown', 'information'],
      ['pipeline.referenceMissing', 'information'],
    ]);
    assert.match(pipeline.problems[1].message, /may be defined in an include that is not resolved here/);
  });
});

describe('aliases that stand for huge trees stay linear', () => {
  test('extends merging two distinct alias pyramids of mappings', () => {
    let text = '';
    for (const side of ['a', 'b']) {
      text += `${side}0: &${side}0 {k0: x, k1: x, k2: x, k3: x, k4: x}\n`;
      for (let i = 1; i < 40; i++) text += `${side}${i}: &${side}${i} {k0: *${side}${i - 1}, k1: *${side}${i - 1}, k2: *${side}${i - 1}, k3: *${side}${i - 1}, k4: *${side}${i - 1}}\n`;
    }
    // 40 levels of 5 keys: 5^40 paths if merged naively. (Nesting past 64 levels is refused anyway.)
    const started = Date.now();
    const pipeline = readPipeline(`${text}.parent:\n  cache: *a39\njob:\n  extends: .parent\n  cache: *b39\n  script: x\n`, none);
    assert.ok(Date.now() - started < 30_000, 'safety net only');
    assert.ok(pipeline.jobs.some((j) => j.name === 'job'));
  });
});

describe('many aliases', () => {
  test('thousands of `<<: *defaults` are linear, not one document walk per alias', () => {
    let text = '.defaults: &defaults\n  stage: deploy\n  rules:\n    - if: $CI_COMMIT_BRANCH\n';
    for (let i = 0; i < 5_000; i++) text += `job${i}:\n  <<: *defaults\n  script: [x]\n`;
    const started = Date.now();
    const pipeline = readPipeline(text, none);
    assert.ok(Date.now() - started < 30_000, 'safety net only');
    assert.equal(pipeline.jobs.length, 5_000);
    assert.equal(pipeline.jobs[4_999].stage, 'deploy');
  });

  test('an alias inside the node it names is refused as too deep', () => {
    const pipeline = readPipeline('a: &a\n  b: *a\njob:\n  script: x\n', none);
    assert.deepEqual(pipeline.jobs, []);
    assert.ok(codes(pipeline).includes('pipeline.yamlTooDeep') || codes(pipeline).includes('pipeline.yamlSyntax'), JSON.stringify(pipeline.problems));
  });
});

describe('aliases GitLab cannot resolve', () => {
  test('an alias with no anchor before it is reported where it is (Psych: Unknown alias)', () => {
    const pipeline = readPipeline('job:\n  script: x\n  variables: *missing\n', none);
    assert.deepEqual(pipeline.problems.map((p) => [p.code, p.location.range.start.line]), [['pipeline.yamlAlias', 2]]);
  });
});
