/**
 * Custom requests, notifications and settings shared by the client and the server: one typed
 * definition each, imported by both sides.
 */
import type { CompatibilityTarget } from './engine/config/compatibilityTarget';

/** The settings section the client exposes under `gitlabAgentConfig.*`. */
export const SETTINGS_SECTION = 'gitlabAgentConfig';

/** Settings the server reads (workspace/configuration). */
export interface ServerSettings {
  readonly target: CompatibilityTarget;
}

export const DEFAULT_SETTINGS: ServerSettings = { target: 'proposal' };

/** Diagnostic `source` shown in the Problems panel. */
export const DIAGNOSTIC_SOURCE = 'gitlab-agent';
