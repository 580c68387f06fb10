/**
 * CI/CD variables as GitLab computes them: expansion (spec §3.7), predefined variables and scenarios
 * (§3.6, §3.8), slugs (§3.9), and the DNS-1123 namespace checks (§4.1). Pure and editor-agnostic.
 */
export {
  expandVariables,
  findVariableReferences,
  type ExpandedReference,
  type ExpansionMode,
  type ExpansionOptions,
  type ExpansionResult,
  type ExpansionVariable,
  type ExpansionVariables,
  type ReferenceSyntax,
  type VariableReference,
} from './expand';
export { environmentSlug, ENVIRONMENT_SLUG_MAX_LENGTH, projectPathSlug, slugify, slugifyRef } from './slug';
export { sha256Base36Suffix } from './hash-suffix';
export {
  checkNamespace,
  DNS1123_LABEL_MAX_LENGTH,
  dns1123LabelProblems,
  isDns1123Label,
  truncateLabel,
  TRUNCATION_SUFFIX_LENGTH,
  type LabelProblem,
  type LabelProblemCode,
  type NamespaceCheck,
  type OverlongNamespacePolicy,
} from './namespace';
export { PREDEFINED_VARIABLES, predefinedVariable, type PredefinedVariable, type VariableAvailability } from './predefined';
export { ENVIRONMENT_TIERS, guessEnvironmentTier, type EnvironmentTier } from './environment-tier';
export {
  allVariableValues,
  rulesIfVariables,
  scenarioVariables,
  type Scenario,
  type ScenarioVariable,
  type ScenarioVariableSource,
} from './scenario';
