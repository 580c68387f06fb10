import type { ValidateFunction } from 'ajv';

/**
 * Validators compiled ahead of time, by `target|version` (the key of agentConfigValidator's cache),
 * and the environment templates' one (template/diagnostics/templateSchema.ts).
 * Empty in the sources: the build (scripts/build.mjs) replaces this module in the bundles with the
 * ajv standalone code of server/src/build/standaloneValidators.ts, so a process does not spend its start compiling
 * the schema. Any other validator is compiled on first use.
 */
export const PRECOMPILED_VALIDATORS: Readonly<Record<string, ValidateFunction>> = {};
