/** GitLab's deployment tiers. */
export type EnvironmentTier = 'production' | 'staging' | 'testing' | 'development' | 'other';

/** All tiers, in GitLab's order. */
export const ENVIRONMENT_TIERS: readonly EnvironmentTier[] = ['production', 'staging', 'testing', 'development', 'other'];

/**
 * `Environment#guess_tier`: the tier GitLab stores when `environment:deployment_tier` is not set — the first
 * of these unanchored, case-insensitive patterns that matches the name wins (so `review/production-fix` is
 * `development`). Source: `gitlabhq` `app/models/environment.rb` (docs/gitlab-behaviour.md#predefined-variables).
 */
export function guessEnvironmentTier(name: string): EnvironmentTier {
  if (/(dev|review|trunk)/i.test(name)) return 'development';
  if (/(test|tst|int|ac(ce|)pt|qa|qc|control|quality)/i.test(name)) return 'testing';
  if (/(st(a|)g|mod(e|)l|pre|demo|non)/i.test(name)) return 'staging';
  if (/(pr(o|)d|live)/i.test(name)) return 'production';
  return 'other';
}
