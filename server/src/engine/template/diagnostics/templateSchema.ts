import Ajv, { type ValidateFunction } from 'ajv';
import schema from '../../../../../schemas/environment-template.schema.json';

/** The environment template JSON Schema (schemas/environment-template.schema.json), bundled into the server. */
export const environmentTemplateSchema: Record<string, unknown> = schema;

/** Editor metadata in the schema that never fails validation. */
const ANNOTATIONS = ['markdownDescription', 'x-since', 'errorMessage', 'enumDescriptions', 'markdownEnumDescriptions'];

let compiled: ValidateFunction | undefined;

/** The compiled validator, built on first use. */
export function environmentTemplateValidator(): ValidateFunction {
  if (compiled) return compiled;
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });
  for (const keyword of ANNOTATIONS) ajv.addKeyword({ keyword });
  compiled = ajv.compile(environmentTemplateSchema);
  return compiled;
}
