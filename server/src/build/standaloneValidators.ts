import standaloneCode from 'ajv/dist/standalone';
import { agentConfigAjv, validatorKey } from '../engine/config/agentConfigSchema';
import type { CompatibilityTarget } from '../engine/config/compatibilityTarget';
import { NEWEST_GITLAB_VERSION } from '../engine/config/gitlabVersions';
import { agentConfigSchemaFor } from '../engine/config/versionedSchema';

/** Compiled ahead of time: both targets for the default GitLab version (the validators a process uses unless told otherwise). */
const AHEAD_OF_TIME: readonly CompatibilityTarget[] = ['proposal', 'gitlab'];

/**
 * Run by the build (scripts/build.mjs), not by any face: the source of a CommonJS module exporting `PRECOMPILED_VALIDATORS` (as precompiledValidators.ts
 * declares it) with ajv standalone code: what the build puts in the bundles in place of that module.
 * Its only imports are ajv's runtime helpers.
 */
export function standaloneValidatorsModule(): string {
  const parts = AHEAD_OF_TIME.map((target) => {
    const ajv = agentConfigAjv(target, { source: true });
    const code = standaloneCode(ajv, ajv.compile(agentConfigSchemaFor(NEWEST_GITLAB_VERSION)));
    // Each standalone module in a function of its own (their top-level names would collide), run
    // on first use: a process that checks only with one target does not build the other's schema objects.
    return `define(${JSON.stringify(validatorKey(target, NEWEST_GITLAB_VERSION))}, () => { const module = { exports: {} }; ${code}\nreturn module.exports; });`;
  });
  const define = 'const define = (key, load) => { let loaded; Object.defineProperty(exports.PRECOMPILED_VALIDATORS, key, { enumerable: true, get: () => (loaded ??= load()) }); };';
  return `"use strict";\nexports.PRECOMPILED_VALIDATORS = {};\n${define}\n${parts.join('\n')}\n`;
}
