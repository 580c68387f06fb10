// What `npm start` writes into examples/.vscode/settings.json so that the first "Apply Environment"
// on the example asks nothing but the confirmation. test/e2e/firstMinute.test.ts starts
// from exactly these settings, so the two cannot drift apart.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The example's workspace settings for a cluster whose kubeconfig is `kubeconfig`. Everything Apply
 * would otherwise ask:
 * - the ids GitLab gives the agent and the project (`.agent.id`, `.project.id`) are not in any file,
 *   so the example says which ones it plays with (made up, as the example's projects are);
 * - the CI project is the one whose pipeline examples/.gitlab-ci.yml is (its header says so); the
 *   folder has no git remote to read it from;
 * - of the built-in scenarios three have an environment; a review app is what one tries on a
 *   scratch cluster (the name is the preset's, server/src/engine/access/scenarios.ts).
 */
export function exampleWorkspaceSettings(kubeconfig) {
  return {
    'gitlabAgentConfig.cluster.kubeconfig': kubeconfig,
    'gitlabAgentConfig.cluster.agentId': 1,
    'gitlabAgentConfig.cluster.projectId': 42,
    'gitlabAgentConfig.pipelineProjectPath': 'acme/shop/storefront',
    'gitlabAgentConfig.configProjectPath': 'acme/infra/agents',
    'gitlabAgentConfig.cluster.applyScenario': 'feature branch → review app',
  };
}

/**
 * Merges `settings` into `folder`/.vscode/settings.json (created if missing); returns how to undo
 * it (each key back to what it was, or the folder removed if we created it). A settings file that
 * is not plain JSON is left alone: `warn` is told what to set, and the undo does nothing.
 */
export function writeWorkspaceSettings(folder, settings, warn = console.log) {
  const file = path.join(folder, '.vscode', 'settings.json');
  const existed = existsSync(file);
  let current = {};
  if (existed) {
    try {
      current = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      warn(`${file} is not plain JSON; set ${JSON.stringify(settings)} there yourself`);
      return () => {};
    }
  }
  const before = Object.fromEntries(Object.keys(settings).map((key) => [key, current[key]]));
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ ...current, ...settings }, null, 2) + '\n');
  return () => {
    if (!existed) return rmSync(path.dirname(file), { recursive: true, force: true });
    const now = JSON.parse(readFileSync(file, 'utf8'));
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete now[key];
      else now[key] = value;
    }
    writeFileSync(file, JSON.stringify(now, null, 2) + '\n');
  };
}
