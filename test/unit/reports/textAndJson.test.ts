// The text and JSON reports moved out of cli/commands/validate.ts into cli/reports/ with their
// output unchanged: rendered from the same results, they equal what `agentcfg validate` prints.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, test } from 'node:test';
import { REPORT_FORMATS, isReportFormat, renderReport } from '../../../server/src/cli/reports';
import { repoRoot } from '../../support/lspClient';
import { validateJson } from './cliResults';

const { stdout: json, reports } = validateJson(repoRoot, 'examples');
const text = spawnSync(process.execPath, [path.join(repoRoot, 'dist', 'cli.js'), 'validate', 'examples'], { cwd: repoRoot, encoding: 'utf8' }).stdout;

describe('text and JSON reports', () => {
  test('JSON: the same bytes as agentcfg validate --format json', () => {
    assert.ok(reports.length > 0);
    assert.equal(renderReport('json', reports, { toolVersion: '0.0.0' }), json);
  });

  test('text: the same lines as agentcfg validate, file:line:col: severity: message [code]', () => {
    assert.match(text, /^examples\/\.gitlab\/agents\/broken-agent\/config\.yaml:5:7: error: Unknown key "defualt_namespace"/m);
    assert.equal(renderReport('text', reports, { toolVersion: '0.0.0' }), text);
  });

  test('no problems: no text, and an empty JSON array', () => {
    assert.equal(renderReport('text', [], { toolVersion: '0.0.0' }), '');
    assert.equal(renderReport('json', [{ file: 'a.yaml', diagnostics: [] }], { toolVersion: '0.0.0' }), '[]\n');
  });

  test('the formats --format accepts', () => {
    assert.deepEqual(REPORT_FORMATS, ['text', 'json', 'sarif', 'codequality']);
    assert.ok(REPORT_FORMATS.every(isReportFormat));
    assert.equal(isReportFormat('junit'), false);
  });
});
