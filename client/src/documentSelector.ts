import type { DocumentSelector } from 'vscode-languageclient';

/**
 * The language id package.json gives agent configurations and environment templates (by
 * `filenamePatterns`). Generic YAML servers such as Red Hat YAML serve the id `yaml`, so they never
 * receive these files and their diagnostics are never doubled (docs/user-guide/editor.md, "Living with the Red Hat YAML extension").
 */
export const LANGUAGE_ID = 'gitlab-agent-yaml';

/**
 * Only agent configurations and their environment templates: the server never sees the user's
 * other YAML files. By language id (saved and untitled documents), and by path for files a user
 * mapped back to `yaml` with `files.associations`.
 */
export const DOCUMENT_SELECTOR: DocumentSelector = [
  { scheme: 'file', language: LANGUAGE_ID },
  { scheme: 'untitled', language: LANGUAGE_ID },
  { scheme: 'file', pattern: '**/.gitlab/agents/*/config.{yaml,yml}' },
  { scheme: 'file', pattern: '**/.gitlab/agents/*/environment_templates/*.{yaml,yml}' },
  // The project's pipeline, for its access map only (lenses, hovers and the diagnostics where it and
  // the agents disagree): its language stays whatever the user's YAML or GitLab extension gives it.
  { scheme: 'file', pattern: '**/.gitlab-ci.yml' },
];

/** `.gitlab-ci.yml`: the server offers only the access map there (see PIPELINE_FEATURES). */
export function isPipelineFile(path: string): boolean {
  return /(?:^|\/)\.gitlab-ci\.yml$/.test(path);
}

/** `…/.gitlab/agents/<agent>/<file inside>`: the client's one reading of agent paths (the server's is engine/files). */
const AGENT_FILE = /[\\/]\.gitlab[\\/]agents[\\/]([^\\/]+)[\\/](.+)$/;

/** The agent of any file in `.gitlab/agents/<agent>/`; undefined for other files. */
export function agentOfPath(path: string): string | undefined {
  return AGENT_FILE.exec(path)?.[1];
}

/** The agent of `.gitlab/agents/<agent>/config.yaml` (or `.yml`); undefined for other files. */
export function agentOfConfigPath(path: string): string | undefined {
  const match = AGENT_FILE.exec(path);
  return match && /^config\.ya?ml$/.test(match[2]) ? match[1] : undefined;
}
