/** `agentcfg render`: GitLab's render step (step 2 of docs/gitlab-behaviour.md#managed-resources-flow) for a scenario, without a cluster. */
import { stringify } from 'yaml';
import { formatRef } from '../../cluster/kube/objectRef';
import { parseArgs } from '../args';
import { formatOption } from '../options';
import type { CliCommand } from '../io';
import { diagnosticLines, ENVIRONMENT_USAGE, ENVIRONMENT_VALUES, environmentFromArgs } from './environmentArgs';

const USAGE = `agentcfg render ${ENVIRONMENT_USAGE}
       [--format text|json]`;

/**
 * Prints the objects the template renders to, as they would be applied (GitLab's labels and
 * annotation, docs/gitlab-behaviour.md#managed-object-labels-and-annotation, and the owning inventory), or the template errors with line and column.
 * Exit 1 on template errors or objects that cannot be applied.
 */
export const renderCommand: CliCommand = {
  name: 'render',
  summary: 'Render an environment template for a scenario, as GitLab would.',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { values: [...ENVIRONMENT_VALUES, 'format'] });
    const format = formatOption(args);
    const prepared = await environmentFromArgs(args, io);
    if (!prepared.ok) {
      if (format === 'json') io.out(JSON.stringify({ ok: false, errors: prepared.errors }, null, 2) + '\n');
      else io.err(diagnosticLines(prepared.templateFile, prepared.errors));
      return 1;
    }
    const env = prepared.environment;
    if (prepared.templateFile === undefined) io.err('agentcfg render: no template file given: GitLab\'s built-in default template is used\n');
    io.err(diagnosticLines(prepared.templateFile, env.rendered.warnings));
    if (format === 'json') {
      io.out(
        JSON.stringify(
          {
            ok: env.problems.length === 0,
            objects: env.objects.map((o) => o.manifest),
            problems: env.problems,
            warnings: env.rendered.warnings,
            inventory: { name: env.inventory.name, namespace: env.inventory.namespace },
            apply_resources: env.rendered.applyResources ?? null,
            delete_resources: env.deleteResources,
            data: env.data,
          },
          null,
          2,
        ) + '\n',
      );
    } else {
      io.out(env.objects.map((o) => `# ${formatRef(o.ref)}\n${stringify(o.manifest, { lineWidth: 0 })}`).join('---\n'));
      for (const p of env.problems) io.err(`agentcfg render: objects[${p.index}]: ${p.message}\n`);
    }
    return env.problems.length > 0 ? 1 : 0;
  },
};
