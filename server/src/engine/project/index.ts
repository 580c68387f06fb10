/**
 * The front door of the engine: what every face (language server, CLI, reports) calls to check an
 * agent's files and simulate its CI access, so they give the same answer for the same files and settings.
 */
export { checkAgentFile, wholeFileModel, type AgentFile, type ConfigModel } from './checks';
export { activeScenarios, DEFAULT_PROJECT_SETTINGS, readProjectSettings, scenarioContext, UNNAMED_AGENT, type ProjectSettings } from './settings';
export { NO_SIBLINGS, siblingsFrom, type AgentFileReader, type AgentSiblings, type ParsedAgentConfig } from './siblings';
export { simulateEntries, simulationTable, type ConfigSimulation, type EntrySimulation, type SimulationRow, type SimulationTable } from './simulation';
export { explainTemplateAt } from './templateHover';
export { type TemplateHover } from '../template/templateHover';
export { pipelineAccess, type PipelineAccess, type PipelineAccessInput } from './pipelineAccess';
export { simulateAccess, type AccessOutcome, type SimulationOptions } from '../access/simulate';
export { agentAsGitlabReads, agentReadingNote, type AgentReading, type MappedAgent } from '../pipeline/agents';
