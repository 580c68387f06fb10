// The scenario argument of the LSP cluster commands arrives as JSON from any editor: every field is
// checked, and a wrong one is named instead of being dropped (a dropped tier would render the
// template with another tier than the user asked for).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InvalidArguments } from '../../../server/src/lsp/cluster/commandRouter';
import { readScenario } from '../../../server/src/lsp/cluster/environmentTemplate';

const base = { agentName: 'prod', agentId: 7, projectId: 42, projectPath: 'acme/shop', environmentName: 'review/x' };

test('a known environmentTier is kept; none leaves the tier to GitLab', () => {
  assert.equal(readScenario({ ...base, environmentTier: 'staging' }).environmentTier, 'staging');
  assert.equal('environmentTier' in readScenario(base), false);
});

test('an unknown environmentTier is refused with the field and the tiers GitLab knows', () => {
  assert.throws(
    () => readScenario({ ...base, environmentTier: 'prod' }),
    (err: unknown) => err instanceof InvalidArguments && /"environmentTier" must be one of production, staging, testing, development, other/.test(err.message),
  );
});

test('a missing or mistyped required field is named', () => {
  assert.throws(() => readScenario({ ...base, agentId: '7' }), /"agentId" must be a non-negative whole number/);
  assert.throws(() => readScenario({ ...base, projectPath: undefined }), /"projectPath" is required/);
});
