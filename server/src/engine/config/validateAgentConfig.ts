import { readCiAccess } from '../access/model';
import { ruleDiagnostics, type RuleCheckContext } from '../access/ruleDiagnostics';
import type { EngineDiagnostic } from '../diagnostics';
import type { CompatibilityTarget } from './compatibilityTarget';
import { crossFieldDiagnostics } from './crossFieldChecks';
import { schemaDiagnostics } from './schemaDiagnostics';
import { semanticDiagnostics } from './semanticChecks';
import { parseYaml, type ParsedYaml } from './yamlDocument';

export interface ValidateOptions {
  /** Compatibility target (default `proposal`). */
  readonly target?: CompatibilityTarget;
  /** The `<agent>` directory name, when the file sits at `.gitlab/agents/<agent>/config.yaml`. */
  readonly agentName?: string;
  /** Scenarios and policies for the rules and namespace checks; without it those checks are skipped. */
  readonly rules?: RuleCheckContext;
}

/** A bound on what one file can produce, so a file of random bytes does not flood the editor. */
export const MAX_DIAGNOSTICS = 500;

/** Validates an agent configuration already parsed with `parseYaml`. */
export function validateParsedAgentConfig(parsed: ParsedYaml, options: ValidateOptions = {}): EngineDiagnostic[] {
  const diagnostics = [...parsed.diagnostics];
  if (!parsed.hasSyntaxErrors) diagnostics.push(...schemaDiagnostics(parsed, options.target ?? 'proposal'));
  diagnostics.push(...semanticDiagnostics(parsed, options.agentName));
  diagnostics.push(...crossFieldDiagnostics(parsed));
  if (options.rules && parsed.doc && !parsed.hasSyntaxErrors) diagnostics.push(...ruleDiagnostics(parsed, readCiAccess(parsed.value), { ...options.rules, options: { ...options.rules.options, target: options.target ?? 'proposal' } }));
  diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
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

/** Parses and validates the text of a `.gitlab/agents/<agent>/config.yaml`. */
export function validateAgentConfig(text: string, options: ValidateOptions = {}): EngineDiagnostic[] {
  return validateParsedAgentConfig(parseYaml(text), options);
}
