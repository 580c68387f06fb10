import Ajv, { _, type KeywordCxt, type ValidateFunction } from 'ajv';
import schema from '../../../../schemas/agent-config.schema.json';
import type { CompatibilityTarget } from '../gitlab/compatibilityTarget';
import { NEWEST_GITLAB_VERSION, type GitlabVersion } from '../gitlab/gitlabVersions';
import { PRECOMPILED_VALIDATORS } from './precompiledValidators';
import { agentConfigSchemaFor } from './versionedSchema';
import { BoundedCache, resetWithEngineCaches } from '../cache';

/** `x-failsLater`: the form the agent needs, what the value is not, and what happens (schemas/src/build-agent-config-schema.mjs). */
export interface FailsLater {
  readonly pattern: string;
  readonly requirement: string;
  readonly when: string;
}

/** The agent configuration JSON Schema (schemas/agent-config.schema.json), bundled into the server. */
export const agentConfigSchema: Record<string, unknown> = schema;

/**
 * Annotation keywords of our schema that carry editor metadata and never fail validation.
 * `errorMessage` / `patternErrorMessage` are the custom messages VS Code's JSON support and
 * yaml-language-server show; schemaDiagnostics uses them too.
 */
const ANNOTATIONS = ['markdownDescription', 'deprecationMessage', 'x-since', 'x-format', 'x-entryLimit', 'x-oneof', 'errorMessage', 'patternErrorMessage'];

const compiled = new BoundedCache<string, ValidateFunction>(256);

/**
 * The compiled validator for a compatibility target and a GitLab version (docs/gitlab-behaviour.md#gitlab-versions),
 * built on first use. `x-removed` and `x-notYet` always fail (the key is reported where it
 * stands), `x-deprecated` too (reported as a warning, the contents still checked); `x-proposal`
 * fails only for target `gitlab`.
 */
export function agentConfigValidator(target: CompatibilityTarget, version: GitlabVersion = NEWEST_GITLAB_VERSION): ValidateFunction {
  // Asked once per entry checked, nearly always for the same pair: the key string and its lookups cost more than the answer.
  if (lastAsked?.target === target && lastAsked.version === version) return lastAsked.validate;
  const cacheKey = validatorKey(target, version);
  const validate = PRECOMPILED_VALIDATORS[cacheKey] ?? compiled.get(cacheKey, () => agentConfigAjv(target).compile(agentConfigSchemaFor(version)));
  lastAsked = { target, version, validate };
  return validate;
}

let lastAsked: { readonly target: CompatibilityTarget; readonly version: GitlabVersion; readonly validate: ValidateFunction } | null = null;
resetWithEngineCaches(() => (lastAsked = null));

/** The key of a validator in the cache and in the precompiled set. */
export function validatorKey(target: CompatibilityTarget, version: GitlabVersion): string {
  return `${target}|${version}`;
}

/**
 * The ajv instance that compiles the schema for `target`, with our keywords. They generate code
 * (no closures), so the same validators can be compiled ahead of time as ajv standalone code
 * (`source`: server/src/build/standaloneValidators.ts).
 */
export function agentConfigAjv(target: CompatibilityTarget, options: { source?: boolean } = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, ...(options.source ? { code: { source: true } } : {}) });
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword });
  for (const keyword of ['x-removed', 'x-notYet', 'x-deprecated']) ajv.addKeyword({ keyword, schemaType: 'object', code: (cxt: KeywordCxt) => cxt.fail(_`true`) });
  // A value GitLab's parser accepts and the agent refuses later (docs/gitlab-behaviour.md#values-that-fail-later): reported as a warning.
  ajv.addKeyword({
    keyword: 'x-failsLater',
    schemaType: 'object',
    code: (cxt: KeywordCxt) => {
      const { pattern } = cxt.schema as FailsLater;
      const regExp = cxt.gen.scopeValue('pattern', { key: pattern, ref: new RegExp(pattern, 'u'), code: _`new RegExp(${pattern}, "u")` });
      cxt.pass(_`typeof ${cxt.data} !== "string" || ${cxt.data} === "" || ${regExp}.test(${cxt.data})`);
    },
  });
  if (target === 'gitlab') ajv.addKeyword({ keyword: 'x-proposal', schemaType: 'boolean', code: (cxt: KeywordCxt) => cxt.fail(_`${cxt.schema as boolean}`) });
  else ajv.addKeyword({ keyword: 'x-proposal' });
  return ajv;
}
