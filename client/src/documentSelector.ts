import type { DocumentSelector } from 'vscode-languageclient';

/**
 * Only agent configurations and their environment templates: the server never sees the user's
 * other YAML files.
 */
export const DOCUMENT_SELECTOR: DocumentSelector = [
  { scheme: 'file', pattern: '**/.gitlab/agents/*/config.{yaml,yml}' },
  { scheme: 'file', pattern: '**/.gitlab/agents/*/environment_templates/*.{yaml,yml}' },
  { scheme: 'untitled', language: 'yaml', pattern: '**/.gitlab/agents/*/config.{yaml,yml}' },
];
