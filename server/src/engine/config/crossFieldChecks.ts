import { isRecord } from '../data';
import type { EngineDiagnostic, Range } from '../diagnostics';
import { nodeAtPath, nodeSpan, type ParsedYaml } from '../yaml/yamlDocument';

/** Rails' defaults for the two workspace lifetimes (docs/gitlab-behaviour.md#remote_development-settings, `default_settings.rb`). */
export const DEFAULT_MAX_ACTIVE_HOURS_BEFORE_STOP = 36;
export const DEFAULT_MAX_STOPPED_HOURS_BEFORE_TERMINATION = 744;
/** One year: the most the two lifetimes may add up to (docs/gitlab-behaviour.md#remote_development-settings). */
export const MAX_WORKSPACE_LIFETIME_HOURS = 8760;

type Path = readonly (string | number)[];

/**
 * `remote_development` rules that JSON Schema cannot express (docs/gitlab-behaviour.md#remote_development-settings): the sum of the two
 * lifetimes, unique image pull secret names, and secrets that must live in the shared namespace.
 * The rules JSON Schema can express live in the schema itself, so other editors apply them too.
 */
export function crossFieldDiagnostics(parsed: ParsedYaml): EngineDiagnostic[] {
  if (!parsed.doc || parsed.hasSyntaxErrors || !isRecord(parsed.value)) return [];
  const settings = parsed.value.remote_development;
  if (!isRecord(settings)) return [];
  const at = (path: Path, part: 'key' | 'value' = 'value'): Range | null => {
    const target = nodeAtPath(parsed.doc!, ['remote_development', ...path]);
    const span = nodeSpan(part === 'key' ? target?.pair?.key : target?.node);
    return span ? parsed.index.range(span[0], span[1]) : null;
  };
  return [...lifetimeSum(settings, at), ...imagePullSecrets(settings, at)];
}

type Locate = (path: Path, part?: 'key' | 'value') => Range | null;

/**
 * GitLab merges the section over its defaults before validating, so a single lifetime is added to
 * the other's default. Reported on every lifetime the file sets (either may be the one to lower).
 */
function lifetimeSum(settings: Record<string, unknown>, at: Locate): EngineDiagnostic[] {
  const active = settings.max_active_hours_before_stop;
  const stopped = settings.max_stopped_hours_before_termination;
  const isHours = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_WORKSPACE_LIFETIME_HOURS;
  if ((active !== undefined && !isHours(active)) || (stopped !== undefined && !isHours(stopped))) return []; // the schema reports those
  if (active === undefined && stopped === undefined) return [];
  const activeHours = active ?? DEFAULT_MAX_ACTIVE_HOURS_BEFORE_STOP;
  const stoppedHours = stopped ?? DEFAULT_MAX_STOPPED_HOURS_BEFORE_TERMINATION;
  const sum = activeHours + stoppedHours;
  if (sum <= MAX_WORKSPACE_LIFETIME_HOURS) return [];
  const describe = (key: string, hours: number, isDefault: boolean) => `${key} ${hours}${isDefault ? ' (the default)' : ''}`;
  const message =
    `The workspace lifetimes add up to ${sum} hours (${describe('max_active_hours_before_stop', activeHours, active === undefined)} + ` +
    `${describe('max_stopped_hours_before_termination', stoppedHours, stopped === undefined)}); GitLab allows at most ${MAX_WORKSPACE_LIFETIME_HOURS} (one year) and rejects the settings.`;
  const out: EngineDiagnostic[] = [];
  for (const key of ['max_active_hours_before_stop', 'max_stopped_hours_before_termination']) {
    const range = settings[key] === undefined ? null : at([key]);
    if (range) out.push({ range, severity: 'error', code: 'config.workspaceLifetime', message, data: { sum, limit: MAX_WORKSPACE_LIFETIME_HOURS } });
  }
  return out;
}

/** Names unique; with `shared_namespace`, every secret in that namespace (docs/gitlab-behaviour.md#remote_development-settings). */
function imagePullSecrets(settings: Record<string, unknown>, at: Locate): EngineDiagnostic[] {
  const secrets = settings.image_pull_secrets;
  if (!Array.isArray(secrets)) return [];
  const shared = typeof settings.shared_namespace === 'string' ? settings.shared_namespace : '';
  const out: EngineDiagnostic[] = [];
  const firstByName = new Map<string, number>();
  secrets.forEach((secret, i) => {
    if (!isRecord(secret)) return;
    const { name, namespace } = secret;
    if (typeof name === 'string') {
      const first = firstByName.get(name);
      const range = at(['image_pull_secrets', i, 'name']);
      if (first !== undefined && range) {
        out.push({
          range,
          severity: 'error',
          code: 'config.duplicateImagePullSecret',
          message: `Image pull secret "${name}" is listed twice (first as entry ${first + 1}); GitLab requires unique names.`,
        });
      } else if (first === undefined) {
        firstByName.set(name, i);
      }
    }
    if (shared && typeof namespace === 'string' && namespace !== shared) {
      const range = at(['image_pull_secrets', i, 'namespace']);
      if (range) {
        out.push({
          range,
          severity: 'error',
          code: 'config.imagePullSecretNamespace',
          message: `With shared_namespace "${shared}", image pull secrets must be in that namespace, not "${namespace}": workspaces only see secrets of their own namespace.`,
          data: { replacement: shared },
        });
      }
    }
  });
  return out;
}
