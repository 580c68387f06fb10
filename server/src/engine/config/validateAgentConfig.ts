import { crossTopLevelDiagnostics, instanceSettingDiagnostics } from '../access/crossTopLevel';
import { honouredEntries, readCiAccess, type CiAccessModel } from '../access/model';
import { ruleDiagnostics, type RuleCheckContext } from '../access/ruleDiagnostics';
import type { EngineDiagnostic } from '../diagnostics';
import { agentConfigValidator } from './agentConfigSchema';
import type { CompatibilityTarget } from '../gitlab/compatibilityTarget';
import { NEWEST_GITLAB_VERSION, type GitlabVersion } from '../gitlab/gitlabVersions';
import { withoutNullFields } from './protojsonNulls';
import { securityLintDiagnostics } from './securityLints';
import { agentConfigSchemaFor } from './versionedSchema';
import { crossFieldDiagnostics } from './crossFieldChecks';
import { schemaDiagnostics } from './schemaDiagnostics';
import { semanticDiagnostics } from './semanticChecks';
import { parseYaml, type ParsedYaml } from '../yaml/yamlDocument';

export interface ValidateOptions {
  /** Compatibility target (default `proposal`). */
  readonly target?: CompatibilityTarget;
  /** The `<agent>` directory name, when the file sits at `.gitlab/agents/<agent>/config.yaml`. */
  readonly agentName?: string;
  /**
   * The agent (its configuration project), scenarios and policies for the rules and namespace
   * checks and the check of entries outside the agent's top-level group; without it those checks are skipped.
   */
  readonly rules?: RuleCheckContext;
  /** The GitLab release the file is checked for (default: the newest, docs/gitlab-behaviour.md#gitlab-versions). */
  readonly gitlabVersion?: GitlabVersion;
  /**
   * The security lints (docs/gitlab-behaviour.md#security-lints): on by default with nothing silenced;
   * `false` turns them off (entries past GitLab's 500, which it ignores).
   */
  readonly securityLints?: { readonly disabled: readonly string[] } | false;
  /** `ci_access` already read from this parse (so a caller that has it does not read it twice). */
  readonly ciAccess?: CiAccessModel;
}

/** A bound on what one file can produce, so a file of random bytes does not flood the editor. */
export const MAX_DIAGNOSTICS = 500;

/** Validates an agent configuration already parsed with `parseYaml`. */
export function validateParsedAgentConfig(parsed: ParsedYaml, options: ValidateOptions = {}): EngineDiagnostic[] {
  return finalizeDiagnostics([...partDiagnostics(parsed, options), ...wholeFileDiagnostics(parsed, options)]);
}

/**
 * Every check that reads only the part of the document it is given: YAML problems, the schema,
 * cross-field rules inside one section, rules and namespaces of each entry. The incremental
 * validator runs these on one `ci_access`/`user_access` entry at a time (and on the rest of the
 * file), so a check added here must not look across list entries — put such a check in
 * `wholeFileDiagnostics`.
 */
export function partDiagnostics(parsed: ParsedYaml, options: ValidateOptions = {}): EngineDiagnostic[] {
  const diagnostics = [...parsed.diagnostics];
  if (!parsed.hasSyntaxErrors) diagnostics.push(...versionedSchemaDiagnostics(parsed, options));
  diagnostics.push(...crossFieldDiagnostics(parsed));
  if (!parsed.doc || parsed.hasSyntaxErrors) return diagnostics;
  const gitlabVersion = options.gitlabVersion ?? NEWEST_GITLAB_VERSION;
  // Only the entries the chosen release reads (100 or 500 of each list) are linted, checked and simulated.
  let ciAccess: CiAccessModel | undefined;
  const honoured = () => (ciAccess ??= honouredEntries(options.ciAccess ?? readCiAccess(parsed.value), gitlabVersion));
  if (options.securityLints !== false) {
    diagnostics.push(...securityLintDiagnostics(parsed, honoured(), { gitlabVersion, disabled: options.securityLints?.disabled ?? [] }));
  }
  diagnostics.push(...instanceSettingDiagnostics(parsed, honoured(), gitlabVersion));
  if (options.rules) {
    diagnostics.push(...ruleDiagnostics(parsed, honoured(), ruleContextFor(options.rules, options.target ?? 'proposal')));
    diagnostics.push(...crossTopLevelDiagnostics(parsed, honoured(), { configProjectPath: options.rules.agent.configProjectPath, gitlabVersion }));
  }
  return diagnostics;
}

/**
 * The rule checks' context with the compatibility target, made once per context and target: the
 * incremental model checks each entry alone, with the same options for every entry.
 */
function ruleContextFor(rules: RuleCheckContext, target: CompatibilityTarget): RuleCheckContext {
  let byTarget = ruleContexts.get(rules);
  if (!byTarget) ruleContexts.set(rules, (byTarget = new Map()));
  let context = byTarget.get(target);
  if (!context) byTarget.set(target, (context = { ...rules, options: { ...rules.options, target } }));
  return context;
}

const ruleContexts = new WeakMap<RuleCheckContext, Map<CompatibilityTarget, RuleCheckContext>>();

/** The schema checks for the chosen version, on the value as protojson reads it (a null field is unset). */
function versionedSchemaDiagnostics(parsed: ParsedYaml, options: ValidateOptions): EngineDiagnostic[] {
  const target = options.target ?? 'proposal';
  const version = options.gitlabVersion ?? NEWEST_GITLAB_VERSION;
  return schemaDiagnostics(parsed, target, agentConfigValidator(target, version), withoutNullFields(parsed.value, agentConfigSchemaFor(version)));
}

/**
 * Checks of the whole file: size, agent name, emptiness, list limits, duplicate ids across entries.
 * `known.uniqueIdLists`: lists (`ci_access.projects`...) the caller knows to have no id twice (the
 * incremental model counts ids as entries come and go), whose duplicate check is skipped.
 */
export function wholeFileDiagnostics(parsed: ParsedYaml, options: ValidateOptions = {}, known: { readonly uniqueIdLists?: ReadonlySet<string> } = {}): EngineDiagnostic[] {
  return semanticDiagnostics(parsed, options.agentName, known.uniqueIdLists, options.gitlabVersion ?? NEWEST_GITLAB_VERSION);
}

/**
 * Orders diagnostics by position (then code and message, so the order never depends on which
 * check ran first) and caps their number.
 */
export function finalizeDiagnostics(diagnostics: EngineDiagnostic[]): EngineDiagnostic[] {
  diagnostics.sort(compareDiagnostics);
  if (diagnostics.length <= MAX_DIAGNOSTICS) return diagnostics;
  const kept = diagnostics.slice(0, MAX_DIAGNOSTICS);
  kept.push({
    range: kept[kept.length - 1].range,
    severity: 'warning',
    code: 'config.tooManyProblems',
    message: `${diagnostics.length - MAX_DIAGNOSTICS} more problems are not shown; fix the ones above first.`,
  });
  return kept;
}

function compareDiagnostics(a: EngineDiagnostic, b: EngineDiagnostic): number {
  return (
    a.range.start.line - b.range.start.line ||
    a.range.start.character - b.range.start.character ||
    a.range.end.line - b.range.end.line ||
    a.range.end.character - b.range.end.character ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}

/** Parses and validates the text of a `.gitlab/agents/<agent>/config.yaml`. */
export function validateAgentConfig(text: string, options: ValidateOptions = {}): EngineDiagnostic[] {
  return validateParsedAgentConfig(parseYaml(text), options);
}
