/**
 * Which GitLab the configuration is checked against.
 * - `proposal` (default): what GitLab ships plus the proposed `rules` design (docs/gitlab-behaviour.md#ci_access-rules-design).
 * - `gitlab`: exactly what GitLab ships; keys it would reject (such as `rules`) are errors, because
 *   an unknown key makes the whole configuration invalid for the agent (docs/gitlab-behaviour.md#config-file-location-and-parsing).
 */
export type CompatibilityTarget = 'proposal' | 'gitlab';

export function isCompatibilityTarget(value: unknown): value is CompatibilityTarget {
  return value === 'proposal' || value === 'gitlab';
}
