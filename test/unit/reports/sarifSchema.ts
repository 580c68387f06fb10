// The official SARIF 2.1.0 JSON schema (OASIS, errata 01; test/fixtures/sarif/README.md says where
// the copy comes from) compiled once for the tests: draft-04, as its `$schema` says, strict, with
// the `uri`, `uri-reference` and `date-time` formats checked rather than ignored.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { repoRoot } from '../../support/lspClient';

export const SARIF_SCHEMA_FILE = path.join(repoRoot, 'test/fixtures/sarif/sarif-schema-2.1.0.json');

const ajv = new Ajv04({ allErrors: true });
addFormats(ajv);
const validateSarif = ajv.compile(JSON.parse(readFileSync(SARIF_SCHEMA_FILE, 'utf8')) as object);

/** What the schema says is wrong with `log` (`instancePath message`), empty when it is valid. */
export function sarifSchemaErrors(log: unknown): string[] {
  return validateSarif(log) ? [] : (validateSarif.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
