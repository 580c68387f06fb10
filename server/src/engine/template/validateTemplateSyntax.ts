import type { EngineDiagnostic } from '../diagnostics';
import { parseYaml } from '../config/yamlDocument';

/**
 * First-level check of an environment template: GitLab parses the raw template as YAML before
 * rendering it (spec §2.3), so YAML syntax errors already break it. Fuller checks come with the
 * template schema.
 */
export function validateEnvironmentTemplateSyntax(text: string): EngineDiagnostic[] {
  return parseYaml(text).diagnostics;
}
