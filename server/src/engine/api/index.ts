/**
 * The front door of the engine: what every face (language server, CLI, reports, cluster code)
 * calls, so they give the same answer for the same files and settings. The editor's own services
 * (completion, outline, hover schemas, semantic tokens, the incremental model) are in ./editor.
 * The linter holds every face to these two modules (eslint.config.mjs).
 */

// Agent files: reading, checking, the settings they are checked with.
export { agentConfigOf, readAgentConfig, type ParsedAgentConfig } from './agentConfig';
export { checkAgentFile, decodeAgentFile, wholeFileModel, type AgentFile, type ConfigModel, type DecodedAgentFile } from './checks';
export { activeScenarios, DEFAULT_PROJECT_SETTINGS, readProjectSettings, scenarioContext, UNNAMED_AGENT, type ProjectSettings } from '../settings/projectSettings';
export { NO_SIBLINGS, siblingsFrom, type AgentFileReader, type AgentSiblings } from './siblings';
export { agentDirectoryOf, classifyPath, CONFIG_FILE_NAMES, DEFAULT_TEMPLATE_FILE_NAMES } from '../files';
export { shownDiagnostics, type EngineDiagnostic, type Severity } from '../diagnostics';
export { isSecurityLintCode, SECURITY_LINTS } from '../config/securityLints';
export { expressionDialect, GITLAB_VERSIONS, isGitlabVersion, NEWEST_GITLAB_VERSION } from '../gitlab/gitlabVersions';
export type { ParsedYaml } from '../yaml/yamlDocument';
export type { AccessRule, CiAccessModel } from '../access/model';

// Simulation: which job gets which access, as whom, where.
export { simulateEntries, simulationTable, type ConfigSimulation, type EntrySimulation, type SimulationRow, type SimulationTable } from './simulation';
export { decidedBy, simulateAccess, viaLabel, type AccessOutcome, type SimulationOptions } from '../access/simulate';
export { kubeContextName, type JobIdentity } from '../access/identity';
export { scenarioForEntry, type JobScenario } from '../access/scenarios';
export type { RuleCheckContext } from '../access/ruleDiagnostics';
export { allVariableValues, scenarioVariables, type Scenario } from '../vars/scenario';
export { environmentSlug, projectPathSlug, slugifyRef } from '../vars/index';
export { ENVIRONMENT_TIERS, type EnvironmentTier } from '../vars/environment-tier';
export { evaluate, evaluateTree, formatExpressionTree, validateExpression, walkExpression, type EvaluateOptions, type EvaluationResult, type ExprError, type ExprNode, type ExprValue } from '../expr';
export type { InputValue } from '../expr/values';

// Pipelines: the access map of a `.gitlab-ci.yml` and its child pipelines.
export { pipelineAccess, type PipelineAccess, type PipelineAccessInput } from '../pipeline/pipelineAccess';
export { agentAsGitlabReads, agentReadingNote, type AgentReading, type MappedAgent } from '../pipeline/agents';
export { TRIGGER_JOB_ACCESS, usedContextText, type JobAccess } from '../pipeline/accessMap';

// What a change does to CI/CD access.
export { accessDiff, type AccessDiffVersion } from '../diff';
export { AGENT_CONFIG_FILE, AGENT_TEMPLATE_FILE, agentFileVersions, isReadAgentFile } from '../diff/agentFileVersions';
export { changeJson, changeLenses, diffMarkdown, diffText, type AgentFilePaths, type AgentFiles } from '../diff/report';

// Environment templates: hover explanations and rendering for apply.
export { explainTemplateAt } from './templateHover';
export type { TemplateHover } from '../template/templateHover';
export { DEFAULT_ENVIRONMENT_TEMPLATE } from '../template/defaultTemplate';
export { renderEnvironmentTemplate, type RenderedEnvironmentTemplate } from '../template/renderTemplate';
export { buildTemplateData, type EnvironmentTemplateData, type TemplateIds } from '../template/templateVariables';
export { dns1123LabelProblems } from '../vars/namespace';

// Plain-data helpers the cluster code shares with the engine.
export { asRecord, isRecord } from '../data';
