import type { EngineDiagnostic } from '../../engine/api';

/** What `agentcfg validate` found in one file, as every report format receives it. */
export interface FileReport {
  /** The path as the user named it (relative to the working directory unless given absolute). */
  readonly file: string;
  /** The file's content when it could be read: Code Quality fingerprints hash the reported line. */
  readonly text?: string;
  readonly diagnostics: readonly EngineDiagnostic[];
}

/** Facts about the run that some formats carry (SARIF names the tool and its version). */
export interface ReportContext {
  readonly toolVersion: string;
}

/**
 * A path as report consumers expect it: forward slashes (GitLab and SARIF viewers match paths
 * against the repository tree, which uses `/` everywhere), without a leading `./`.
 */
export function portablePath(file: string): string {
  return file.replaceAll('\\', '/').replace(/^(\.\/)+/, '');
}
