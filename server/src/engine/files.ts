/** What kind of file the engine is looking at, from its path. */
export type FileKind =
  | { readonly kind: 'agentConfig'; readonly agentName: string }
  | { readonly kind: 'environmentTemplate'; readonly agentName: string; readonly templateName: string }
  | { readonly kind: 'other' };

/** The spellings of an agent's files, relative to `.gitlab/agents/<agent>/`; the first found is used. */
export const CONFIG_FILE_NAMES = ['config.yaml', 'config.yml'] as const;
export const DEFAULT_TEMPLATE_FILE_NAMES = ['environment_templates/default.yaml', 'environment_templates/default.yml'] as const;

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
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
