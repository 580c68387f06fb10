/**
 * Which GitLab the configuration is checked against.
 * - `proposal` (default): what GitLab ships plus the `rules` design of seed 003.
 * - `gitlab`: exactly what GitLab ships; keys it would reject (such as `rules`) are errors, because
 *   an unknown key makes the whole configuration invalid for the agent (spec §1.1).
 */
export type CompatibilityTarget = 'proposal' | 'gitlab';

export function isCompatibilityTarget(value: unknown): value is CompatibilityTarget {
  return value === 'proposal' || value === 'gitlab';
}
