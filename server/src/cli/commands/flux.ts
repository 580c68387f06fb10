import { formatRef } from '../../cluster/kube/objectRef';
import { parseWantedRevision, waitForFluxSync } from '../../cluster/flux/index';
import { isFailure } from '../../cluster/kube/outcome';
import { parseArgs, UsageError } from '../args';
import type { CliIo, CliCommand } from '../io';
import { CLUSTER_VALUES, outputFormat, timeoutOption, withClusterSession } from '../clusterOptions';
import { choiceOption, nameOption } from '../options';
import { observeFluxWait } from '../progressLedgers';
import { CLUSTER_COMMAND_SUMMARIES } from './clusterSummaries';

const USAGE = `agentcfg flux wait --kind Kustomization|OCIRepository --name <name> --namespace <ns> --revision <revision>
                 [--timeout <300s>] [--context <name>] [--kubeconfig <path>] [--format text|json]
   revision: <ref>@sha1:<sha> or a commit sha (also found through an OCI artifact's revision metadata),
             sha256:<digest> or <tag>@sha256:<digest>`;

const KINDS = ['Kustomization', 'OCIRepository'] as const;

/**
 * `agentcfg flux wait`: blocks until Flux has applied a revision (docs/gitlab-behaviour.md#waiting-for-flux-from-a-job, docs/gitlab-behaviour.md#flux) — exit 0 when
 * applied, 1 when the controller reports a failure or the timeout passes (the message says the last
 * state seen), 2 for a usage error (a revision that is not one, a name Kubernetes would refuse),
 * 130 on Ctrl-C. Read-only: `--yes` and `--dry-run` are accepted for symmetry and change nothing.
 */
export const fluxCommand: CliCommand = {
  name: 'flux',
  summary: CLUSTER_COMMAND_SUMMARIES.flux,
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'wait') throw new UsageError(`${sub === undefined ? 'no sub-command' : `unknown sub-command "${sub}"`}: the only sub-command is wait`);
    return fluxWait(rest, io);
  },
};

async function fluxWait(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, { values: [...CLUSTER_VALUES, 'kind', 'name', 'namespace', 'revision'], flags: ['yes', 'dry-run'] });
  if (args.positional.length) throw new UsageError(`unexpected argument ${args.positional[0]}`);
  const kind = choiceOption(args, 'kind', KINDS) ?? 'Kustomization';
  const name = nameOption(args, 'name', 'subdomain');
  const namespace = nameOption(args, 'namespace', 'namespace');
  const revision = args.values.revision;
  if (!name || !namespace || !revision) throw new UsageError('--name, --namespace and --revision are required');
  const wanted = parseWantedRevision(revision);
  if ('error' in wanted) throw new UsageError(`--revision: ${wanted.error}`);
  const format = outputFormat(args);
  const timeoutMs = timeoutOption(args);
  return withClusterSession(args, io, format, 'flux wait', async (run) => {
    const group = kind === 'Kustomization' ? 'kustomize.toolkit.fluxcd.io' : 'source.toolkit.fluxcd.io';
    run.observe(observeFluxWait(run.ledger, `Flux applies ${wanted.text} for ${formatRef({ group, version: 'v1', kind, namespace, name })}`));
    run.closing('Nothing was changed: flux wait only reads. Run it again to keep waiting.');
    const result = await waitForFluxSync(run.session, { kind, name, namespace, revision, progress: run.progress, signal: run.signal, ...(timeoutMs ? { timeoutMs } : {}) });
    if (isFailure(result)) return run.fail(result);
    if (format === 'json') io.out(JSON.stringify({ ok: true, revision, ...result.value }) + '\n');
    else io.out(result.value.kustomizations.map((k) => `Kustomization ${k.namespace}/${k.name} applied ${k.revision}: ${k.message}`).join('\n') + '\n');
    return 0;
  });
}
