/**
 * The namespace checks decide a scenario only where a namespace would be invalid there; this holds
 * them to the definition they shortcut: every scenario simulated in full (`simulateAccess`), and a
 * namespace reported where the source that decides gives an invalid one.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { namespaceSources, readCiAccess, singleEntryModel, type AccessEntry } from '../../../server/src/engine/access/model';
import { ruleDiagnostics } from '../../../server/src/engine/access/ruleDiagnostics';
import { presetScenarios, scenarioForEntry, type JobScenario } from '../../../server/src/engine/access/scenarios';
import { decidedBy, simulateAccess, type SimulationOptions } from '../../../server/src/engine/access/simulate';
import { nodeAtPath, parseYaml, type ParsedYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { hasVariableReference } from '../../../server/src/engine/vars/expand';
import { checkNamespace } from '../../../server/src/engine/vars/namespace';
import { generateVariedAgentConfig } from '../../support/generateConfig';

const agent = { configProjectPath: 'acme/agents', name: 'a' };

/** The presets, filters reached another way, a job in a fixed project and a job whose own variable names an invalid namespace. */
const JOBS: JobScenario[] = [
  ...presetScenarios('main'),
  { name: 'staging deploy', ref: 'main', protectedRef: true, environmentName: 'staging', environmentTier: 'staging' },
  { name: 'unprotected review', ref: 'fix/x', protectedRef: false, environmentName: 'review/fix-x', environmentTier: 'development' },
  { name: 'fixed project', ref: 'main', protectedRef: true, projectPath: 'acme/Other_App', environmentName: 'production' },
  { name: 'own variable', ref: 'main', protectedRef: true, environmentName: 'staging', variables: { TEAM_NS: 'TeamNS' } },
];

const OPTION_SETS: SimulationOptions[] = (['proposal', 'gitlab'] as const).flatMap((target) =>
  (['deny', 'allow'] as const).flatMap((noRuleMatch) => (['error', 'truncate'] as const).map((overlongNamespace) => ({ target, noRuleMatch, overlongNamespace }))),
);

/** Entries the generated configs have few of: `when: never` with a namespace, a rule without one, own variables, overlong names, namespaces invalid in some jobs, the instance. */
const HANDWRITTEN = `ci_access:
  projects:
    - id: acme/My_App
      default_namespace: ns-$CI_PROJECT_NAME
      rules:
        - if: $CI_COMMIT_TAG
          when: never
          namespace: Never_$CI_COMMIT_TAG
        - if: $CI_ENVIRONMENT_NAME == "production"
        - namespace: $TEAM_NS
    - id: acme/web
      environments: [production, review/*]
      rules:
        - if: $CI_PIPELINE_SOURCE == "merge_request_event"
          namespace: mr-$CI_MERGE_REQUEST_IID
        - namespace: ${'x'.repeat(60)}-$CI_ENVIRONMENT_SLUG
    - id: acme/own
      rules:
        - namespace: ns-$TEAM_NS-x
    - id: acme/review
      rules:
        - namespace: review-$CI_ENVIRONMENT_SLUG
    - id: acme/refs
      rules:
        - if: $CI_COMMIT_REF_NAME
          namespace: ref-$CI_COMMIT_REF_NAME
    - id: acme/tags
      protected_branches_only: true
      rules:
        - if: $CI_COMMIT_TAG == null
          namespace: $CI_ENVIRONMENT_SLUG
        - namespace: tag-$CI_COMMIT_TAG
  groups:
    - id: acme/platform
      protected_branches_only: true
      rules:
        - namespace: $CI_PROJECT_NAMESPACE
  instance:
    default_namespace: $CI_COMMIT_REF_NAME
    rules:
      - if: $CI_COMMIT_BRANCH
        namespace: $CI_COMMIT_REF_NAME
`;

type Found = { readonly code: string; readonly severity: string; readonly message: string; readonly line: number };

/** What the namespace checks must report for `entry`: decided in full in every job. */
function expectedFor(parsed: ParsedYaml, entry: AccessEntry, jobs: readonly JobScenario[], options: SimulationOptions): Found[] {
  const useRules = entry.rules !== undefined && (options.target ?? 'proposal') === 'proposal';
  const model = singleEntryModel(entry);
  const outcomes = jobs.map((job) => simulateAccess(model, agent, scenarioForEntry(job, entry, 'main'), { ...options, anyEntry: true }));
  const found: Found[] = [];
  for (const source of namespaceSources(entry)) {
    if (!useRules && source.rule !== null) continue;
    const line = lineOf(parsed, source.path);
    if (!hasVariableReference(source.template) || (!useRules && source.rule === null)) {
      const check = checkNamespace(source.template, options.overlongNamespace);
      if (check.kind === 'invalid') found.push({ code: 'namespace.invalid', severity: useRules ? 'error' : 'warning', message: `"${source.template}" is not a valid Kubernetes namespace: ${check.problems.map((p) => p.message).join('; ')}.`, line });
      continue;
    }
    const deciding = outcomes.flatMap((outcome, i) => (decidedBy(outcome, source.rule) ? [{ outcome, job: jobs[i]! }] : []));
    const failing = deciding.flatMap(({ outcome, job }) => outcome.problems.filter((p) => p.code === 'namespace.invalid').map((p) => `${job.name}: ${p.message}`));
    if (!failing.length) continue;
    found.push(
      failing.length === deciding.length
        ? { code: 'namespace.invalidForAll', severity: 'error', message: `The namespace is invalid in every scenario where this rule applies — ${failing.join(' | ')}`, line }
        : { code: 'namespace.invalidForSome', severity: 'warning', message: `The namespace is invalid in ${failing.length} of ${deciding.length} scenarios — ${failing.join(' | ')}`, line },
    );
  }
  return found;
}

function lineOf(parsed: ParsedYaml, path: readonly (string | number)[]): number {
  const node = nodeAtPath(parsed.doc!, path)!.node!;
  return parsed.index.positionAt(node.range![0]).line;
}

describe('namespace checks against every scenario simulated in full', () => {
  test('the same diagnostics for every entry of varied and handwritten configs, 8 jobs, 8 option sets', () => {
    const counts = new Map<string, number>();
    const texts = [HANDWRITTEN, ...[1, 2, 3, 4].map((seed) => generateVariedAgentConfig(50, seed))];
    for (const text of texts) {
      const parsed = parseYaml(text);
      const model = readCiAccess(parsed.value);
      const entries = [...model.projects, ...model.groups, ...(model.instance ? [model.instance] : [])];
      for (const options of OPTION_SETS) {
        for (const jobs of [JOBS, presetScenarios('main')]) {
          const actual = ruleDiagnostics(parsed, model, { agent, scenarios: jobs, defaultBranch: 'main', options })
            .filter((d) => d.code.startsWith('namespace.'))
            .map((d) => ({ code: d.code, severity: d.severity, message: d.message, line: d.range.start.line }));
          const expected = entries.flatMap((entry) => expectedFor(parsed, entry, jobs, options));
          assert.deepEqual(actual, expected, JSON.stringify(options));
          for (const d of expected) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
        }
      }
    }
    // The comparison means something only when each kind of report came up many times.
    for (const code of ['namespace.invalid', 'namespace.invalidForAll', 'namespace.invalidForSome']) assert.ok((counts.get(code) ?? 0) >= 20, `${code}: ${counts.get(code) ?? 0}`);
  });
});
