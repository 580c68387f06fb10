/**
 * The editor's services, beside the front door (./index): what only an editor asks for — completion,
 * the outline, schemas for hovers, semantic tokens, positions in the YAML tree, and the incremental
 * model that keeps a big config cheap per keystroke.
 */
export { EditedAgentConfig } from './editedConfig';
export { quickFixesFor, type QuickFix } from '../fixes/quickFixes';
export { agentConfigContext, completeAgentConfig, completeEnvironmentTemplate, idsOfConfig, indexIds, isIdValue, type CandidateKind, type CompletionCandidate, type KnownIds, type ScenarioEnvironment, type ScenarioVariableName } from '../completion';
export { outline, type OutlineNode } from '../config/outline';
export { describeKey, schemaAtPath } from '../config/schemaLookup';
export { agentConfigSchemaFor } from '../config/versionedSchema';
export { MAX_CONFIG_BYTES, sizeDiagnostic } from '../config/semanticChecks';
export { expressionSemanticSpans, namespaceSemanticSpans, SEMANTIC_TOKEN_TYPES, type SemanticSpan } from '../highlighting/semanticTokens';
export { hasVariableReference } from '../vars/expand';
export { namespaceSources } from '../access/model';
export { SplicedText, type TextSource } from '../text/splicedText';
export { nodeAtPath, nodeSpan, pairOfKey, parseYaml, valueOfKey } from '../yaml/yamlDocument';
export { pathAtOffset } from '../yaml/pathAtOffset';
export { scalarOffsetMapper } from '../yaml/scalarSource';
