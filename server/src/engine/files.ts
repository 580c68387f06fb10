/** What kind of file the engine is looking at, from its path. */
export type FileKind =
  | { readonly kind: 'agentConfig'; readonly agentName: string }
  | { readonly kind: 'environmentTemplate'; readonly agentName: string; readonly templateName: string }
  | { readonly kind: 'other' };

const AGENT_CONFIG = /(?:^|[\\/])\.gitlab[\\/]agents[\\/]([^\\/]+)[\\/]config\.ya?ml$/;
const ENVIRONMENT_TEMPLATE = /(?:^|[\\/])\.gitlab[\\/]agents[\\/]([^\\/]+)[\\/]environment_templates[\\/]([^\\/]+)\.ya?ml$/;

/** Classifies a file path or URI path (`.gitlab/agents/<agent>/config.yaml`, `.../environment_templates/<name>.yaml`). */
export function classifyPath(filePath: string): FileKind {
  const decoded = safeDecode(filePath);
  const config = AGENT_CONFIG.exec(decoded);
  if (config) return { kind: 'agentConfig', agentName: config[1] };
  const template = ENVIRONMENT_TEMPLATE.exec(decoded);
  if (template) return { kind: 'environmentTemplate', agentName: template[1], templateName: template[2] };
  return { kind: 'other' };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
