import type { Connection } from 'vscode-languageserver';
import { readJobScenarios } from '../engine/access/scenarios';
import { isCompatibilityTarget } from '../engine/config/compatibilityTarget';
import { DEFAULT_SETTINGS, SETTINGS_SECTION, type ServerSettings } from '../protocol';

/**
 * Reads the user's settings through workspace/configuration when the client supports it, and
 * falls back to defaults otherwise (other LSP clients, tests that do not answer). Every value is
 * checked: settings are user input too.
 */
export class SettingsStore {
  private cached: ServerSettings | null = null;

  constructor(
    private readonly connection: Connection,
    private readonly clientSupportsConfiguration: () => boolean,
  ) {}

  async get(): Promise<ServerSettings> {
    if (this.cached) return this.cached;
    if (!this.clientSupportsConfiguration()) return DEFAULT_SETTINGS;
    try {
      const raw = ((await this.connection.workspace.getConfiguration(SETTINGS_SECTION)) ?? {}) as Partial<Record<string, unknown>>;
      this.cached = readSettings(raw);
    } catch {
      this.cached = DEFAULT_SETTINGS;
    }
    return this.cached;
  }

  invalidate(): void {
    this.cached = null;
  }
}

export function readSettings(raw: Partial<Record<string, unknown>>): ServerSettings {
  const d = DEFAULT_SETTINGS;
  const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v.trim() : fallback);
  return {
    target: isCompatibilityTarget(raw.target) ? raw.target : d.target,
    defaultBranch: text(raw.defaultBranch, d.defaultBranch) || d.defaultBranch,
    usePresetScenarios: typeof raw.usePresetScenarios === 'boolean' ? raw.usePresetScenarios : d.usePresetScenarios,
    scenarios: readJobScenarios(raw.scenarios),
    noRuleMatch: raw.noRuleMatch === 'allow' ? 'allow' : 'deny',
    overlongNamespace: raw.overlongNamespace === 'truncate' ? 'truncate' : 'error',
    configProjectPath: text(raw.configProjectPath, ''),
  };
}
