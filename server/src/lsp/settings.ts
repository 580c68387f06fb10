import type { Connection } from 'vscode-languageserver';
import { readProjectSettings } from '../engine/api';
import { DEFAULT_SETTINGS, SETTINGS_SECTION, type ServerSettings } from '../protocol';

/**
 * Reads the user's settings through workspace/configuration when the client supports it, and
 * falls back to defaults otherwise (other LSP clients, tests that do not answer). Every value is
 * checked: settings are user input too.
 */
export class SettingsStore {
  private cached: ServerSettings | null = null;
  /** The pull under way: callers meanwhile share it instead of each asking the client. */
  private pending: Promise<ServerSettings> | null = null;
  /** Counts invalidations: a pull that an invalidation overtook answers its callers but is not kept. */
  private generation = 0;

  constructor(
    private readonly connection: Connection,
    private readonly clientSupportsConfiguration: () => boolean,
  ) {}

  get(): Promise<ServerSettings> {
    if (this.cached) return Promise.resolve(this.cached);
    if (!this.clientSupportsConfiguration()) return Promise.resolve(DEFAULT_SETTINGS);
    return (this.pending ??= this.pull());
  }

  /**
   * Pulls the settings while the server is idle (after `initialized`), so the first validation
   * does not wait for a round trip to the client.
   */
  prefetch(): void {
    void this.get();
  }

  /** Forgets the settings (they changed) and pulls them again at once, for the same reason. */
  invalidate(): void {
    this.cached = null;
    this.pending = null;
    this.generation++;
    this.prefetch();
  }

  private async pull(): Promise<ServerSettings> {
    const generation = this.generation;
    let settings: ServerSettings;
    try {
      const raw = ((await this.connection.workspace.getConfiguration(SETTINGS_SECTION)) ?? {}) as Partial<Record<string, unknown>>;
      settings = readServerSettings(raw);
    } catch {
      settings = DEFAULT_SETTINGS;
    }
    if (generation === this.generation) {
      this.cached = settings;
      this.pending = null;
    }
    return settings;
  }
}

/** The engine's settings, and what only the editor reads (where the pipeline's project and extra agents are). */
function readServerSettings(raw: Partial<Record<string, unknown>>): ServerSettings {
  const agentConfigs = Array.isArray(raw.agentConfigs) ? raw.agentConfigs.filter((p): p is string => typeof p === 'string' && p.trim() !== '').map((p) => p.trim()) : [];
  const pipelineProjectPath = typeof raw.pipelineProjectPath === 'string' ? raw.pipelineProjectPath.trim() : '';
  return { ...readProjectSettings(raw), agentConfigs, pipelineProjectPath };
}
