import type Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import { agentConfigAjv, validatorKey } from '../engine/config/agentConfigSchema';
import type { CompatibilityTarget } from '../engine/gitlab/compatibilityTarget';
import { NEWEST_GITLAB_VERSION } from '../engine/gitlab/gitlabVersions';
import { agentConfigSchemaFor } from '../engine/config/versionedSchema';
import { environmentTemplateAjv, environmentTemplateSchema, TEMPLATE_VALIDATOR_KEY } from '../engine/template/diagnostics/templateSchema';

/** Compiled ahead of time: both targets for the default GitLab version (the validators a process uses unless told otherwise), and the environment templates' one. */
const AHEAD_OF_TIME: readonly CompatibilityTarget[] = ['proposal', 'gitlab'];

/**
 * Run by the build (scripts/build.mjs), not by any face: the source of a CommonJS module exporting `PRECOMPILED_VALIDATORS` (as precompiledValidators.ts
 * declares it) with ajv standalone code: what the build puts in the bundles in place of that module.
 * Its only imports are ajv's runtime helpers.
 */
export function standaloneValidatorsModule(): string {
  // Each standalone module in a function of its own (their top-level names would collide), run
  // on first use: a process that checks only with one target does not build the other's schema objects.
  const standaloneEntry = (key: string, ajv: Ajv, schema: Record<string, unknown>) =>
    `define(${JSON.stringify(key)}, () => { const module = { exports: {} }; ${standaloneCode(ajv, ajv.compile(schema))}\nreturn module.exports; });`;
  const parts = [
    ...AHEAD_OF_TIME.map((target) => standaloneEntry(validatorKey(target, NEWEST_GITLAB_VERSION), agentConfigAjv(target, { source: true }), agentConfigSchemaFor(NEWEST_GITLAB_VERSION))),
    standaloneEntry(TEMPLATE_VALIDATOR_KEY, environmentTemplateAjv({ source: true }), environmentTemplateSchema),
  ];
  const defineFunction = 'const define = (key, load) => { let loaded; Object.defineProperty(exports.PRECOMPILED_VALIDATORS, key, { enumerable: true, get: () => (loaded ??= load()) }); };';
  return `"use strict";\nexports.PRECOMPILED_VALIDATORS = {};\n${defineFunction}\n${parts.join('\n')}\n`;
}
