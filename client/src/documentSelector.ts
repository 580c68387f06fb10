import type { DocumentSelector } from 'vscode-languageclient';

/**
 * The language id package.json gives agent configurations and environment templates (by
 * `filenamePatterns`). Generic YAML servers such as Red Hat YAML serve the id `yaml`, so they never
 * receive these files and their diagnostics are never doubled (see README, "Red Hat YAML").
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
];
