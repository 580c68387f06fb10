import type { Connection } from 'vscode-languageserver';
import { readProjectSettings } from '../engine/project';
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
      this.cached = readServerSettings(raw);
    } catch {
      this.cached = DEFAULT_SETTINGS;
    }
    return this.cached;
  }

  invalidate(): void {
    this.cached = null;
  }
}

/** The engine's settings, and what only the editor reads (where the pipeline's project and extra agents are). */
function readServerSettings(raw: Partial<Record<string, unknown>>): ServerSettings {
  const agentConfigs = Array.isArray(raw.agentConfigs) ? raw.agentConfigs.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim()) : [];
  const pipelineProjectPath = typeof raw.pipelineProjectPath === 'string' ? raw.pipelineProjectPath.trim() : '';
  return { ...readProjectSettings(raw), agentConfigs, pipelineProjectPath };
}
