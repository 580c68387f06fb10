/**
 * Checks of one environment template file on its own (docs/gitlab-behaviour.md#gitlab-managed-resources), in GitLab's order: the raw text
 * must be YAML (Rails loads it before rendering), of the template schema's shape, a valid Go template
 * that calls only existing functions and reads only GitLab's variables; and only `default.yaml` is used.
 * Checks that need the agent configuration or scenarios live in engine/crossFile.
 */
import { composeYaml, tooDeepDiagnostic } from '../../yaml/boundedYaml';
import { hasBehaviour, NEWEST_GITLAB_VERSION, VERSIONED_BEHAVIOURS, type GitlabVersion } from '../../gitlab/gitlabVersions';
import { schemaDiagnostics } from '../../config/schemaDiagnostics';
import { GITLAB_YAML, parseComposedYaml } from '../../yaml/yamlDocument';
import type { EngineDiagnostic } from '../../diagnostics';
import { TextIndex } from '../../text/textIndex';
import { environmentTemplateValidator } from './templateSchema';
import { templateReferenceDiagnostics } from './templateReferences';
import { unquotedActionDiagnostics } from './unquotedActions';

/** Rails always asks KAS for the template named `default` (docs/gitlab-behaviour.md#environment-template-file). */
export const USED_TEMPLATE_NAME = 'default';

export interface TemplateFileOptions {
  /** The file name without `.yaml`/`.yml` (`default` for `default.yaml`). */
  readonly templateName?: string;
  /** The GitLab release checked for (default the newest): before 17.9 GitLab reads no template (docs/gitlab-behaviour.md#gitlab-versions). */
  readonly gitlabVersion?: GitlabVersion;
}

/** Every problem of one template file, sorted by position. */
export function validateEnvironmentTemplate(text: string, options: TemplateFileOptions = {}): EngineDiagnostic[] {
  const name = options.templateName ?? USED_TEMPLATE_NAME;
  const index = new TextIndex(text);
  const out: EngineDiagnostic[] = [];

  const version = options.gitlabVersion ?? NEWEST_GITLAB_VERSION;
  if (!hasBehaviour('environmentTemplates', version)) {
    out.push({
      range: index.range(0, index.lineEnd(0)),
      severity: 'warning',
      code: 'template.notInVersion',
      message: `GitLab ${version} does not read environment templates: GitLab-managed Kubernetes resources were added in ${VERSIONED_BEHAVIOURS.environmentTemplates.added}, so this file has no effect (GitLab version setting: ${version}).`,
      data: { added: VERSIONED_BEHAVIOURS.environmentTemplates.added, version },
    });
  } else if (name !== USED_TEMPLATE_NAME) {
    out.push({
      range: index.range(0, index.lineEnd(0)),
      severity: 'warning',
      code: 'template.ignoredFile',
      message: `GitLab uses only environment_templates/default.yaml; "${name}" is never read, so its objects are never created. Rename it to default.yaml to use it.`,
    });
  }

  // Unquoted `{{` values first, on the YAML tree alone (they are keys with collection values, which
  // converting to data would stringify). Nothing recursive runs on a text nested past the bound.
  const composed = composeYaml(text, GITLAB_YAML);
  if (!composed.ok) {
    out.push(tooDeepDiagnostic(index, composed.tooDeepAt), ...templateReferenceDiagnostics(text, name));
    return sortByPosition(out);
  }
  const raw = composed.docs[0];
  const unquoted = raw ? unquotedActionDiagnostics(raw, text, index) : [];
  if (unquoted.length > 0) {
    // A YAML error caused by an unquoted `{{` is explained once, by the unquoted-action diagnostic.
    const explainedLines = new Set(unquoted.flatMap((d) => [d.range.start.line, d.range.start.line + 1]));
    out.push(...unquoted);
    for (const error of raw?.errors ?? []) {
      const range = index.range(error.pos[0], Math.max(error.pos[1], error.pos[0] + 1));
      if (!explainedLines.has(range.start.line)) out.push({ range, severity: 'error', code: 'yaml.syntax', message: error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '') });
    }
  } else {
    // No unquoted action: the same tree is read as data (one parse of the file, not two).
    const parsed = parseComposedYaml(text, composed);
    out.push(...parsed.diagnostics.map((d) => (d.code === 'yaml.extraDocument' ? { ...d, message: 'GitLab reads only the first YAML document of the template; this document and the ones after it are ignored.' } : d)));
    if (!parsed.hasSyntaxErrors) out.push(...schemaDiagnostics(parsed, 'gitlab', environmentTemplateValidator()).map(templateSchemaWording));
  }
  out.push(...templateReferenceDiagnostics(text, name));
  return sortByPosition(out);
}

function sortByPosition(diagnostics: EngineDiagnostic[]): EngineDiagnostic[] {
  return diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** Unknown keys of a template: GitLab's handling is not documented, so a warning rather than an error. */
function templateSchemaWording(d: EngineDiagnostic): EngineDiagnostic {
  if (d.code !== 'schema.unknownKey') return d;
  return { ...d, severity: 'warning', message: `${d.message} GitLab reads only these keys of a template; this one has no effect.` };
}

/**
 * Whether rendering the template says anything more: not when the raw YAML is broken or the Go
 * template does not parse (GitLab stops there, and those are reported already), nor when this tool
 * stopped at one of its bounds. Unknown variables do not stop it: GitLab renders them as "<no value>".
 */
export function isRenderable(own: readonly EngineDiagnostic[]): boolean {
  return !own.some((d) => d.severity === 'error' && (d.code.startsWith('yaml.') || d.code === 'template.unquotedAction' || d.code === 'template.syntax' || d.code === 'template.limit'));
}
