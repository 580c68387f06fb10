/**
 * Red Hat YAML's client document selector (redhat-developer/vscode-yaml `src/extension.ts`, the 1.x
 * line that ships yaml-language-server 1.25): language ids only, no file pattern. yaml-language-server
 * names the same list when it registers its formatter (checked in test/lsp/coexistence.test.ts).
 */
export const RED_HAT_LANGUAGES: readonly string[] = [
  'yaml',
  'yaml-textmate',
  'yaml-tmlanguage',
  'ansible',
  'azure-pipelines',
  'dockercompose',
  'github-actions-workflow',
  'home-assistant',
  'manifest-yaml',
  'spring-boot-properties-yaml',
];
