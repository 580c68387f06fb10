import Ajv, { type ValidateFunction } from 'ajv';
import schema from '../../../../../schemas/environment-template.schema.json';
import { PRECOMPILED_VALIDATORS } from '../../config/precompiledValidators';

/** The environment template JSON Schema (schemas/environment-template.schema.json), bundled into the server. */
export const environmentTemplateSchema: Record<string, unknown> = schema;

/** Editor metadata in the schema that never fails validation. */
const ANNOTATIONS = ['markdownDescription', 'x-since', 'errorMessage', 'enumDescriptions', 'markdownEnumDescriptions'];

/** The key of the template validator in the set compiled ahead of time (config/precompiledValidators.ts). */
export const TEMPLATE_VALIDATOR_KEY = 'environmentTemplate';

let compiled: ValidateFunction | undefined;

/** The validator: the one compiled ahead of time in a bundle, else compiled on first use. */
export function environmentTemplateValidator(): ValidateFunction {
  compiled ??= PRECOMPILED_VALIDATORS[TEMPLATE_VALIDATOR_KEY] ?? environmentTemplateAjv().compile(environmentTemplateSchema);
  return compiled;
}

/** The ajv instance that compiles the template schema (`source`: for ajv standalone code, server/src/build/standaloneValidators.ts). */
export function environmentTemplateAjv(options: { source?: boolean } = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true, ...(options.source ? { code: { source: true } } : {}) });
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword });
  return ajv;
}
