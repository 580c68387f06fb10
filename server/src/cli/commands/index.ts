import type { CliCommand } from '../io';
import { validateCommand } from './validate';

/** Every `agentcfg` sub-command, in the order `agentcfg --help` lists them. */
export const COMMANDS: readonly CliCommand[] = [validateCommand];
