import Ajv, { type ValidateFunction } from 'ajv';
import schema from '../../../../schemas/agent-config.schema.json';
import type { CompatibilityTarget } from './compatibilityTarget';

/** The agent configuration JSON Schema (schemas/agent-config.schema.json), bundled into the server. */
export const agentConfigSchema: Record<string, unknown> = schema;

/**
 * Annotation keywords of our schema that carry editor metadata and never fail validation.
 * `errorMessage` / `patternErrorMessage` are the custom messages VS Code's JSON support and
 * yaml-language-server show; schemaDiagnostics uses them too.
 */
const ANNOTATIONS = ['markdownDescription', 'deprecationMessage', 'x-since', 'x-format', 'x-entryLimit', 'x-oneof', 'errorMessage', 'patternErrorMessage'];

const compiled = new Map<CompatibilityTarget, ValidateFunction>();

/**
 * The compiled validator for a compatibility target, built on first use. `x-removed` always fails
 * (a removed key is reported where it stands); `x-proposal` fails only for target `gitlab`.
 */
export function agentConfigValidator(target: CompatibilityTarget): ValidateFunction {
  let validate = compiled.get(target);
  if (validate) return validate;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword });
  ajv.addKeyword({ keyword: 'x-removed', schemaType: 'object', validate: () => false });
  if (target === 'gitlab') ajv.addKeyword({ keyword: 'x-proposal', schemaType: 'boolean', validate: (enabled: boolean) => !enabled });
  else ajv.addKeyword({ keyword: 'x-proposal' });
  validate = ajv.compile(agentConfigSchema);
  compiled.set(target, validate);
  return validate;
}
