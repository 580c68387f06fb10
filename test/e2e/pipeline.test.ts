// The pipeline access map, end to end in a real VS Code (code-server): opening examples/.gitlab-ci.yml shows above
// each job which agent context it gets (lens), and the Problems panel warns about the job whose
// `kubectl --context` names an agent no configuration provides.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { formatProblems, launchWorkbench, repoRoot, type Workbench } from './harness';

let wb: Workbench;

before(async () => {
  wb = await launchWorkbench({
    workspaceFolder: path.join(repoRoot, 'examples'),
    // The example's agents live in acme/infra/agents, its pipeline is acme/shop/storefront's.
    settings: { 'gitlabAgentConfig.configProjectPath': 'acme/infra/agents', 'gitlabAgentConfig.pipelineProjectPath': 'acme/shop/storefront' },
  });
});

after(async () => {
  await wb?.close();
});

test('.gitlab-ci.yml: a lens above each job with its cluster access, and the context typo in Problems', async () => {
  await wb.openFile('.gitlab-ci.yml');
  const warning = await wb.waitForProblem((p) => /kubectl would fail/.test(p.message), 60_000);
  assert.equal(warning.severity, 'warning');
  assert.match(warning.message, /no context "acme\/infra\/agents:prodution-agent".*did you mean "acme\/infra\/agents:production-agent"/);
  // Bring the review job and the production deploy into view for the screenshot.
  const lines = readFileSync(path.join(repoRoot, 'examples', '.gitlab-ci.yml'), 'utf8').split('\n');
  await wb.goTo(lines.indexOf('review:') + 1, 1);
  const lenses = wb.page.locator('.codelens-decoration');
  await lenses.filter({ hasText: 'production-agent → storefront as ci_job' }).first().waitFor({ state: 'attached', timeout: 60_000 });
  const titles = await lenses.allTextContents();
  await wb.screenshot('pipeline-access-map');
  assert.ok(titles.some((t) => /^☸ .*production-agent → storefront as ci_job \(managed\) · runs in 1\/5 situations$/.test(t)), titles.join('\n'));
  // Our problems are only those where pipeline and agents disagree: no general CI linting.
  const ours = (await wb.problems()).filter((p) => p.source === 'gitlab-agent' && /gitlab-ci/.test(p.resource ?? ''));
  assert.ok(ours.every((p) => /^pipeline\./.test(p.code ?? '')), formatProblems(ours));
});
