// agentcfg's SARIF report (server/src/cli/reports/sarif.ts), validated against the official SARIF
// 2.1.0 JSON schema (OASIS, errata 01: test/fixtures/sarif/README.md says where the copy comes
// from) and checked property by property against the standard,
// https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html (section numbers below).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { renderReport, type FileReport } from '../../../server/src/cli/reports';
import { repoRoot } from '../../support/lspClient';
import { diagnostic, validateJson } from './cliResults';
import { SARIF_SCHEMA_FILE as SCHEMA_FILE, sarifSchemaErrors as schemaErrors } from './sarifSchema';

const SCHEMA_SHA256 = 'c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e';
const schemaText = readFileSync(SCHEMA_FILE, 'utf8');

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: Record<string, number> } }[];
  partialFingerprints: Record<string, string>;
}
interface SarifLog {
  $schema: string;
  version: string;
  runs: { tool: { driver: { name: string; version: string; informationUri: string; rules: { id: string }[] } }; columnKind: string; results: SarifResult[] }[];
}

const sarif = (reports: readonly FileReport[]) => JSON.parse(renderReport('sarif', reports, { toolVersion: '9.8.7' })) as SarifLog;

const EXAMPLES = validateJson(repoRoot, 'examples').reports;

/** Every severity, a path with a space, `#` and backslashes, and a line with a character outside the BMP. */
const EDGES: FileReport[] = [
  {
    file: 'odd dir\\#1\\.gitlab\\agents\\a\\config.yaml',
    text: 'a: 1\nb: "😀" x\n',
    diagnostics: [
      diagnostic(0, 0, 1, 'error', 'schema.unknownKey', 'Unknown key "a".'),
      diagnostic(1, 8, 9, 'warning', 'yaml.trailing', 'Text after the string.'),
      diagnostic(1, 3, 7, 'information', 'schema.info', 'An emoji.'),
      diagnostic(0, 0, 0, 'hint', 'schema.hint', 'An insertion point.'),
    ],
  },
  { file: '/abs/path/.gitlab/agents/b/config.yaml', diagnostics: [diagnostic(2, 4, 6, 'error', 'schema.unknownKey', 'Unknown key "zz".')] },
];

describe('SARIF report (SARIF 2.1.0)', () => {
  test('the vendored schema is the unchanged official file', () => {
    assert.equal(createHash('sha256').update(readFileSync(SCHEMA_FILE)).digest('hex'), SCHEMA_SHA256);
    assert.match(schemaText, /"id": "https:\/\/docs\.oasis-open\.org\/sarif\/sarif\/v2\.1\.0\/errata01\/os\/schemas\/sarif-schema-2\.1\.0\.json"/);
  });

  test('the report on examples/ is valid against the official schema', () => {
    assert.ok(EXAMPLES.length > 0 && EXAMPLES.every((r) => r.diagnostics.length > 0), 'examples/ has problems to report');
    assert.deepEqual(schemaErrors(sarif(EXAMPLES)), []);
  });

  test('every severity, odd paths, an absolute path and an empty report are valid too', () => {
    assert.deepEqual(schemaErrors(sarif(EDGES)), []);
    assert.deepEqual(schemaErrors(sarif([])), []);
  });

  test('the validator has teeth: the schema rejects what SARIF forbids', () => {
    const broken = (edit: (log: SarifLog) => void) => {
      const log = sarif(EDGES);
      edit(log);
      return schemaErrors(log);
    };
    assert.notDeepEqual(broken((log) => (log.runs[0].results[0].locations[0].physicalLocation.region.startLine = 0)), []);
    assert.notDeepEqual(broken((log) => (log.runs[0].results[0].level = 'information')), []);
    assert.notDeepEqual(broken((log) => (log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri = 'a b/c d')), []);
    assert.notDeepEqual(broken((log) => (log.version = '2.0.0')), []);
  });

  test('§3.13, §3.19: the log names the schema and the tool, with the version it was given', () => {
    const log = sarif(EXAMPLES);
    assert.equal(log.version, '2.1.0');
    assert.equal(log.$schema, 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json');
    assert.equal(log.runs.length, 1);
    const { name, version, informationUri } = log.runs[0].tool.driver;
    assert.deepEqual({ name, version, informationUri }, { name: 'agentcfg', version: '9.8.7', informationUri: 'https://docs.gitlab.com/user/clusters/agent/' });
  });

  test('§3.49, §3.27.5-6: one rule per distinct code, and each result points at its own', () => {
    const run = sarif(EXAMPLES).runs[0];
    const codes = [...new Set(EXAMPLES.flatMap((r) => r.diagnostics.map((d) => d.code)))].sort();
    assert.deepEqual(run.tool.driver.rules, codes.map((id) => ({ id })));
    assert.equal(run.results.length, EXAMPLES.flatMap((r) => r.diagnostics).length);
    for (const result of run.results) assert.equal(run.tool.driver.rules[result.ruleIndex].id, result.ruleId);
  });

  test('§3.27.10: error → error, warning → warning, information and hint → note; the message as text', () => {
    const results = sarif(EDGES).runs[0].results;
    assert.deepEqual(
      results.map((r) => [r.ruleId, r.level, r.message.text]),
      [
        ['schema.unknownKey', 'error', 'Unknown key "a".'],
        ['yaml.trailing', 'warning', 'Text after the string.'],
        ['schema.info', 'note', 'An emoji.'],
        ['schema.hint', 'note', 'An insertion point.'],
        ['schema.unknownKey', 'error', 'Unknown key "zz".'],
      ],
    );
  });

  test('§3.4, §3.30: relative URIs under %SRCROOT% with forward slashes, percent-encoded; 1-based regions', () => {
    const [first, , emoji, insertion, absolute] = sarif(EDGES).runs[0].results.map((r) => r.locations[0].physicalLocation);
    assert.deepEqual(first.artifactLocation, { uri: 'odd%20dir/%231/.gitlab/agents/a/config.yaml', uriBaseId: '%SRCROOT%' });
    assert.deepEqual(first.region, { startLine: 1, startColumn: 1, endLine: 1, endColumn: 2 });
    // 😀 is two UTF-16 code units: the LSP characters 3–7 (`"😀"`) are columns 4 to 8, end exclusive.
    assert.deepEqual(emoji.region, { startLine: 2, startColumn: 4, endLine: 2, endColumn: 8 });
    assert.deepEqual(insertion.region, { startLine: 1, startColumn: 1, endLine: 1, endColumn: 1 });
    assert.deepEqual(absolute.artifactLocation, { uri: 'file:///abs/path/.gitlab/agents/b/config.yaml' });
  });

  test('§3.30 on a real file: the region quotes exactly the text the engine flagged', () => {
    const report = EXAMPLES.find((r) => r.diagnostics.some((d) => d.code === 'schema.unknownKey'));
    assert.ok(report?.text);
    const result = sarif([report]).runs[0].results.find((r) => r.ruleId === 'schema.unknownKey');
    assert.ok(result);
    const { artifactLocation, region } = result.locations[0].physicalLocation;
    assert.equal(artifactLocation.uri, 'examples/.gitlab/agents/broken-agent/config.yaml');
    const line = report.text.split('\n')[region.startLine - 1];
    assert.equal(line.slice(region.startColumn - 1, region.endColumn - 1), 'defualt_namespace');
  });

  test('§3.14.27: columns are declared as UTF-16 code units, the unit of LSP characters', () => {
    assert.equal(sarif(EDGES).runs[0].columnKind, 'utf16CodeUnits');
  });

  test('§3.27.17: each result carries the Code Quality fingerprint', () => {
    const results = sarif(EXAMPLES).runs[0].results;
    const quality = JSON.parse(renderReport('codequality', EXAMPLES, { toolVersion: '9.8.7' })) as { fingerprint: string }[];
    assert.deepEqual(
      results.map((r) => r.partialFingerprints['agentcfgFinding/v1']),
      quality.map((q) => q.fingerprint),
    );
  });
});
