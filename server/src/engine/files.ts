import type { EngineDiagnostic } from './diagnostics';

/** What kind of file the engine is looking at, from its path. */
export type FileKind =
  | { readonly kind: 'agentConfig'; readonly agentName: string }
  | { readonly kind: 'environmentTemplate'; readonly agentName: string; readonly templateName: string }
  | { readonly kind: 'other' };

/**
 * The agent files GitLab reads, relative to `.gitlab/agents/<agent>/`: only these spellings. A
 * `config.yml` or `environment_templates/default.yml` is ignored by GitLab
 * (docs/gitlab-behaviour.md#ignored-file-names), so it is never taken as an agent's configuration
 * or as the template a config is checked against; the file itself is still checked, with a warning.
 */
export const CONFIG_FILE_NAMES = ['config.yaml'] as const;
export const DEFAULT_TEMPLATE_FILE_NAMES = ['environment_templates/default.yaml'] as const;

/**
 * The one answer to "is this an agent's file": `<anything>/.gitlab/agents/<agent>/` (group 1, the
 * agent directory; group 2, its name) followed by `config.ya?ml` or `environment_templates/<name>.ya?ml`
 * (group 3, the path inside; group 4, the template name). Either separator, so URIs and Windows paths alike.
 */
const AGENT_FILE = /^((?:.*[\\/])?\.gitlab[\\/]agents[\\/]([^\\/]+)[\\/])(config\.ya?ml|environment_templates[\\/]([^\\/]+)\.ya?ml)$/;

/** Classifies a file path or URI path (`.gitlab/agents/<agent>/config.yaml`, `.../environment_templates/<name>.yaml`). */
export function classifyPath(filePath: string): FileKind {
  const match = AGENT_FILE.exec(safeDecode(filePath));
  if (!match) return { kind: 'other' };
  if (match[4] === undefined) return { kind: 'agentConfig', agentName: match[2] };
  return { kind: 'environmentTemplate', agentName: match[2], templateName: match[4] };
}

/**
 * The agent directory (`…/.gitlab/agents/<agent>/`, with its trailing separator, as written: not
 * URI-decoded) of an agent's config or template, and the file's path inside it; null for other files.
 */
export function agentDirectoryOf(filePath: string): { directory: string; inside: string } | null {
  const match = AGENT_FILE.exec(filePath);
  return match ? { directory: match[1], inside: match[3].replaceAll('\\', '/') } : null;
}

function safeDecode(value: string): string {
  // Without a `%` there is nothing to decode (most paths): decodeURIComponent would only copy it.
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * GitLab opens `config.yaml` and `environment_templates/default.yaml` only; the `.yml` spelling of
 * either is never read (docs/gitlab-behaviour.md#ignored-file-names). A warning on the first line,
 * with the name to rename the file to; null for every other file. `text` is asked only for those two.
 */
export function ignoredSpellingDiagnostic(filePath: string, text: () => string): EngineDiagnostic | null {
  const inside = agentDirectoryOf(filePath)?.inside;
  const firstLine = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: text().split(/\r?\n/, 1)[0].length } });
  if (inside === 'config.yml') {
    return {
      range: firstLine(),
      severity: 'warning',
      code: 'file.ignoredName',
      message: 'GitLab reads only config.yaml (not .yml) and ignores this file: nothing in it configures the agent. Rename it to config.yaml.',
      data: { renameTo: 'config.yaml' },
    };
  }
  if (inside === 'environment_templates/default.yml') {
    return {
      range: firstLine(),
      severity: 'warning',
      code: 'file.ignoredName',
      message: 'GitLab reads only environment_templates/default.yaml (not .yml) and ignores this file: without default.yaml it renders its built-in default template. Rename it to default.yaml.',
      data: { renameTo: 'default.yaml' },
    };
  }
  return null;
}
