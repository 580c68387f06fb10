import type { CliCommand } from '../io';
import { applyCommand } from './apply';
import { canICommand } from './canI';
import { destroyCommand } from './destroy';
import { fluxCommand } from './flux';
import type { ClusterCommandName } from './clusterSummaries';
import { workspaceCommand } from './workspace';
import { dropBundledUrlParseWarning } from '../../cluster/kube/urlParseWarning';

// Before any request of the bundle's Kubernetes client (Node 24 and later would warn about its url.parse()).
dropBundledUrlParseWarning();

/**
 * The commands that talk to a cluster. The build makes this module a bundle of its own
 * (dist/cliClusterCommands.js, scripts/build.mjs), imported on the first cluster command: the
 * other commands start without reading @kubernetes/client-node and the cluster code.
 */
export const CLUSTER_COMMANDS: Readonly<Record<ClusterCommandName, CliCommand>> = { apply: applyCommand, destroy: destroyCommand, workspace: workspaceCommand, flux: fluxCommand, 'can-i': canICommand };
