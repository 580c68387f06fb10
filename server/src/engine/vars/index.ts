/**
 * CI/CD variables as GitLab computes them: expansion (docs/gitlab-behaviour.md#variable-expansion), predefined variables and scenarios
 * (docs/gitlab-behaviour.md#variables-available-to-job-rules, docs/gitlab-behaviour.md#predefined-variables), slugs (docs/gitlab-behaviour.md#ref-and-environment-slugs), and the DNS-1123 namespace checks (docs/gitlab-behaviour.md#names). Pure and editor-agnostic.
 */
export {
  expandedText,
  expandVariables,
  findVariableReferences,
  hasVariableReference,
  replaceReferences,
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
