import { proposalOnlyDiagnostic } from '../access/proposalOnly';
import { finalizeDiagnostics, partDiagnostics, wholeFileDiagnostics, type ValidateOptions } from '../config/validateAgentConfig';
import { configCrossFileDiagnostics, templateCrossFileDiagnostics } from '../crossFile/agentFiles';
import type { EngineDiagnostic } from '../diagnostics';
import { classifyPath, ignoredSpellingDiagnostic } from '../files';
import { isRenderable, validateEnvironmentTemplate } from '../template/diagnostics/validateEnvironmentTemplate';
import { decodeUtf8, invalidUtf8Diagnostic } from '../text/utf8';
import { readAgentConfig, type ParsedAgentConfig } from './agentConfig';
import { activeScenarios, scenarioContext, UNNAMED_AGENT, type ProjectSettings } from '../settings/projectSettings';
import type { AgentSiblings } from './siblings';

/** One file as a face hands it over. */
export interface AgentFile {
  /** Path or URI path: decides whether it is a config or a template, and the agent's name. */
  readonly path: string;
  /**
   * Bytes as read from disk (checked for UTF-8, as GitLab's YAML reader requires), the same bytes
   * already decoded by `decodeAgentFile`, the text, or a function that gives the text an editor
   * holds: called only when a check needs the whole text, which a config with its editor's
   * incremental model does not (a big file's keystroke joins nothing).
   */
  readonly content: string | Uint8Array | DecodedAgentFile | (() => string);
}

/** A file's bytes decoded once: the text every check and report reads, and the problem when they are not UTF-8. */
export interface DecodedAgentFile {
  readonly text: string;
  readonly encodingProblem: EngineDiagnostic | null;
}

/** Decodes a file's bytes as GitLab reads them (UTF-8 only). */
export function decodeAgentFile(bytes: Uint8Array): DecodedAgentFile {
  const decoded = decodeUtf8(bytes);
  return { text: decoded.text, encodingProblem: invalidUtf8Diagnostic(decoded, bytes) };
}

/**
 * A config's text already parsed, and how its own checks run. By default they run on the whole
 * file; the editor passes its incremental model, which gives the same set from cached entries.
 */
export interface ConfigModel extends ParsedAgentConfig {
  ownDiagnostics(options: ValidateOptions): EngineDiagnostic[];
}

/**
 * Every problem of one agent file, in the one order and under the one cap every face reports:
 * the file's own checks, the `rules` and namespace checks for the active scenarios, the note that
 * GitLab rejects `rules` while the target accepts them (access/proposalOnly.ts), and the checks
 * against its sibling (config.yaml ↔ environment_templates/default.yaml). A file that is not an
 * agent's template is checked as a configuration.
 */
export function checkAgentFile(file: AgentFile, settings: ProjectSettings, siblings: AgentSiblings, model?: ConfigModel): EngineDiagnostic[] {
  const { content } = file;
  const decoded = content instanceof Uint8Array ? decodeAgentFile(content) : typeof content === 'object' ? content : null;
  // An editor's text is asked for only if a check reads it (AgentFile.content).
  let text = decoded ? decoded.text : typeof content === 'string' ? content : undefined;
  const readText = () => (text ??= (content as () => string)());
  const kind = classifyPath(file.path);
  const found =
    kind.kind === 'environmentTemplate'
      ? checkEnvironmentTemplate(readText(), kind.templateName, kind.agentName, settings, siblings)
      : checkAgentConfig(model ?? wholeFileModel(readText()), kind.kind === 'agentConfig' ? kind.agentName : null, settings, siblings);
  const ignored = ignoredSpellingDiagnostic(file.path, readText);
  const all = ignored ? [ignored, ...found] : found;
  const encoding = decoded?.encodingProblem ?? null;
  const diagnostics = finalizeDiagnostics(encoding ? [encoding, ...all] : all);
  // The encoding is the first thing to fix: never cut by the cap on the number of problems.
  if (encoding && !diagnostics.includes(encoding)) diagnostics.unshift(encoding);
  return diagnostics;
}

/** A config's model parsed whole (the command line's path, and the editor's before any edit). */
export function wholeFileModel(text: string): ConfigModel {
  const config = readAgentConfig(text);
  return { ...config, ownDiagnostics: (options) => [...partDiagnostics(config.parsed, options), ...wholeFileDiagnostics(config.parsed, options)] };
}

/** `agentName` null: a configuration outside an agent directory (no name check, no sibling). */
function checkAgentConfig(model: ConfigModel, agentName: string | null, settings: ProjectSettings, siblings: AgentSiblings): EngineDiagnostic[] {
  const note = proposalOnlyDiagnostic(model.parsed, model.ciAccess, settings);
  const own = [
    ...model.ownDiagnostics({
      target: settings.target,
      gitlabVersion: settings.gitlabVersion,
      securityLints: { disabled: settings.disabledLints },
      ...(agentName !== null ? { agentName } : {}),
      rules: scenarioContext(settings, agentName ?? UNNAMED_AGENT),
      ciAccess: model.ciAccess,
    }),
    ...(note ? [note] : []),
  ];
  if (agentName === null) return own;
  const together = configCrossFileDiagnostics({
    config: model.parsed,
    ciAccess: model.ciAccess,
    templateText: siblings.defaultTemplate(),
    agentName,
    scenarios: activeScenarios(settings),
    defaultBranch: settings.defaultBranch,
  });
  return [...own, ...together];
}

/** Only `default` is rendered by GitLab, so only it is checked against config.yaml, once its own problems allow rendering. */
function checkEnvironmentTemplate(text: string, templateName: string, agentName: string, settings: ProjectSettings, siblings: AgentSiblings): EngineDiagnostic[] {
  const own = validateEnvironmentTemplate(text, { templateName, gitlabVersion: settings.gitlabVersion });
  if (templateName !== 'default' || !isRenderable(own)) return own;
  const config = siblings.config();
  const together = templateCrossFileDiagnostics({
    config: config?.parsed ?? null,
    ...(config ? { ciAccess: config.ciAccess } : {}),
    templateText: text,
    agentName,
    scenarios: activeScenarios(settings),
    defaultBranch: settings.defaultBranch,
  });
  return [...own, ...together];
}
