import type { CliCommand } from '../io';
import { applyCommand } from './apply';
import { destroyCommand } from './destroy';
import { diffCommand } from './diff';
import { exprCommand } from './expr';
import { fluxCommand } from './flux';
import { pipelineCommand } from './pipeline';
import { renderCommand } from './render';
import { simulateCommand } from './simulate';
import { slugCommand } from './slug';
import { validateCommand } from './validate';
import { workspaceCommand } from './workspace';

/** Every `agentcfg` sub-command, in the order `agentcfg --help` lists them. */
export const COMMANDS: readonly CliCommand[] = [validateCommand, simulateCommand, pipelineCommand, diffCommand, exprCommand, slugCommand, renderCommand, applyCommand, destroyCommand, workspaceCommand, fluxCommand];
