// esbuild for scripts/build.mjs, also when npm builds this package as a git dependency.
//
// pre-commit installs a `language: node` hook repository with `npm install -g git+file://<clone>`
// (pre-commit 4.x, languages/node.py). npm then prepares the clone — `npm install --include=dev`
// in it, then our `prepare` script (the build) — but that inner install inherits the outer
// `npm_config_global=true` and `npm_config_prefix`, so the devDependencies land in the global
// prefix, not in the clone, and the build cannot find esbuild (seen with npm 11.19). Only in that
// case, the devDependencies are installed into the clone from its lock file, as a local install
// without the outer install's settings and without install scripts (so `prepare` does not run
// again) — then the build goes on as usual.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The outer install's settings that still apply: where the cache and the user's .npmrc are, and how
 * to reach the registry. The rest (global, prefix, allow-scripts, install-links, include, force…)
 * describe the outer install and break a local `npm ci` (npm 11 refuses `allow-scripts` there).
 */
const KEPT_NPM_CONFIG = /^npm_config_(cache|userconfig|registry|@[^:]+:registry|https?_proxy|proxy|no_?proxy|cafile|ca|strict_ssl|node_gyp|nodedir|user_agent)$/i;

export async function importEsbuild(root) {
  const require = createRequire(path.join(root, 'package.json'));
  const load = async () => import(pathToFileURL(require.resolve('esbuild')).href);
  try {
    return await load();
  } catch (err) {
    const preparingGlobalGitDependency = process.env.npm_lifecycle_event === 'prepare' && process.env.npm_config_global === 'true';
    if (err?.code !== 'MODULE_NOT_FOUND' || !preparingGlobalGitDependency) throw err;
  }
  console.error('[prepare] installing the build tools into this git dependency (npm ci --include=dev --ignore-scripts)');
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_/i.test(key) || KEPT_NPM_CONFIG.test(key)));
  const install = spawnSync('npm', ['ci', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (install.status !== 0) throw new Error(`npm ci in ${root} exited with ${install.status ?? install.signal}`);
  return load();
}
