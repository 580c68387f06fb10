import Ajv, { type ValidateFunction } from 'ajv';
import schema from '../../../../schemas/agent-config.schema.json';
import type { CompatibilityTarget } from './compatibilityTarget';
import { NEWEST_GITLAB_VERSION, type GitlabVersion } from './gitlabVersions';
import { agentConfigSchemaFor } from './versionedSchema';

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

const compiled = new Map<string, ValidateFunction>();

/**
 * The compiled validator for a compatibility target and a GitLab version (docs/gitlab-behaviour.md#gitlab-versions),
 * built on first use. `x-removed` and `x-notYet` always fail (the key is reported where it
 * stands), `x-deprecated` too (reported as a warning, the contents still checked); `x-proposal`
 * fails only for target `gitlab`.
 */
export function agentConfigValidator(target: CompatibilityTarget, version: GitlabVersion = NEWEST_GITLAB_VERSION): ValidateFunction {
  const cacheKey = `${target}|${version}`;
  let validate = compiled.get(cacheKey);
  if (validate) return validate;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword });
  for (const keyword of ['x-removed', 'x-notYet', 'x-deprecated']) ajv.addKeyword({ keyword, schemaType: 'object', validate: () => false });
  // A value GitLab's parser accepts and the agent refuses later (docs/gitlab-behaviour.md#values-that-fail-later): reported as a warning.
  ajv.addKeyword({ keyword: 'x-failsLater', schemaType: 'object', validate: (rule: FailsLater, data: unknown) => typeof data !== 'string' || data === '' || new RegExp(rule.pattern, 'u').test(data) });
  if (target === 'gitlab') ajv.addKeyword({ keyword: 'x-proposal', schemaType: 'boolean', validate: (enabled: boolean) => !enabled });
  else ajv.addKeyword({ keyword: 'x-proposal' });
  validate = ajv.compile(agentConfigSchemaFor(version));
  compiled.set(cacheKey, validate);
  return validate;
}
