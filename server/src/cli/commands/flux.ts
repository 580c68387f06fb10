import { waitForFluxSync } from '../../cluster/flux/index';
import { isFailure } from '../../cluster/kube/outcome';
import { parseArgs, UsageError } from '../args';
import type { CliCommand } from '../io';
import { CLUSTER_VALUES, outputFormat, printFailure, stderrProgress, timeoutOption, withClusterSession } from '../clusterOptions';

const USAGE = `agentcfg flux wait --kind Kustomization|OCIRepository --name <name> --namespace <ns> --revision <revision>
                 [--timeout <300s>] [--context <name>] [--kubeconfig <path>] [--format text|json]
   revision: <ref>@sha1:<sha> or a commit sha (also found through an OCI artifact's revision metadata),
             sha256:<digest> or <tag>@sha256:<digest>`;

/**
 * `agentcfg flux wait`: blocks until Flux has applied a revision (seed 002, spec §6) — exit 0 when
 * applied, 1 when the controller reports a failure or the timeout passes (the message says the last
 * state seen). Read-only: `--yes` and `--dry-run` are accepted for symmetry and change nothing.
 */
export const fluxCommand: CliCommand = {
  name: 'flux',
  summary: 'Wait until a Flux Kustomization (or the ones of an OCIRepository) applied a revision.',
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'wait') throw new UsageError('the only sub-command is wait');
    const args = parseArgs(rest, { values: [...CLUSTER_VALUES, 'kind', 'name', 'namespace', 'revision'], flags: ['yes', 'dry-run'] });
    if (args.positional.length) throw new UsageError(`unexpected argument ${args.positional[0]}`);
    const kind = args.values.kind ?? 'Kustomization';
    if (kind !== 'Kustomization' && kind !== 'OCIRepository') throw new UsageError('--kind must be Kustomization or OCIRepository');
    const { name, namespace, revision } = args.values;
    if (!name || !namespace || !revision) throw new UsageError('--name, --namespace and --revision are required');
    const format = outputFormat(args);
    const timeoutMs = timeoutOption(args);
    return withClusterSession(args, io, format, async (session) => {
      const result = await waitForFluxSync(session, { kind, name, namespace, revision, progress: stderrProgress(io, 'flux wait'), ...(timeoutMs ? { timeoutMs } : {}) });
      if (isFailure(result)) return printFailure(io, format, result);
      if (format === 'json') io.out(JSON.stringify({ ok: true, revision, ...result.value }) + '\n');
      else io.out(result.value.kustomizations.map((k) => `Kustomization ${k.namespace}/${k.name} applied ${k.revision}: ${k.message}`).join('\n') + '\n');
      return 0;
    });
  },
};
