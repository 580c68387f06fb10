import type { CliCommand } from '../io';
import { CLUSTER_COMMAND_SUMMARIES, type ClusterCommandName } from './clusterSummaries';
import { DIFF_SUMMARY } from './diffSummary';
import { exprCommand } from './expr';
import { pipelineCommand } from './pipeline';
import { renderCommand } from './render';
import { simulateCommand } from './simulate';
import { slugCommand } from './slug';
import { validateCommand } from './validate';

/**
 * A cluster command as `agentcfg --help` lists it; the command itself is imported when it is
 * chosen (a bundle of its own, with @kubernetes/client-node: `agentcfg validate` starts without them).
 */
function clusterCommand(name: ClusterCommandName): CliCommand {
  return {
    name,
    summary: CLUSTER_COMMAND_SUMMARIES[name],
    usage: '',
    resolve: async () => (await import('./clusterCommands')).CLUSTER_COMMANDS[name],
    run: async (argv, io) => (await import('./clusterCommands')).CLUSTER_COMMANDS[name].run(argv, io),
  };
}

/**
 * `agentcfg diff`, imported when it is chosen: it runs git through node:child_process, whose loading
 * every other command, `agentcfg validate` of one file first, would otherwise pay at start.
 */
const diffCommand: CliCommand = {
  name: 'diff',
  summary: DIFF_SUMMARY,
  usage: '',
  resolve: async () => (await import('./diff')).diffCommand,
  run: async (argv, io) => (await import('./diff')).diffCommand.run(argv, io),
};

/** Every `agentcfg` sub-command, in the order `agentcfg --help` lists them. */
export const COMMANDS: readonly CliCommand[] = [validateCommand, simulateCommand, pipelineCommand, diffCommand, exprCommand, slugCommand, renderCommand, clusterCommand('can-i'), clusterCommand('apply'), clusterCommand('destroy'), clusterCommand('workspace'), clusterCommand('flux')];
