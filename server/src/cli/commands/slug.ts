import { environmentSlug, projectPathSlug, slugifyRef } from '../../engine/api';
import { parseArgs, UsageError } from '../args';
import type { CliCommand } from '../io';

const KINDS: Readonly<Record<string, (name: string) => string>> = {
  environment: environmentSlug,
  ref: slugifyRef,
  project: projectPathSlug,
};

/**
 * `agentcfg slug environment|ref|project <name>`: prints `CI_ENVIRONMENT_SLUG`, `CI_COMMIT_REF_SLUG` or
 * `CI_PROJECT_PATH_SLUG` for the name, computed as GitLab does (docs/gitlab-behaviour.md#ref-and-environment-slugs).
 */
export const slugCommand: CliCommand = {
  name: 'slug',
  summary: 'Print GitLab’s slug of an environment name, ref or project path.',
  usage: 'agentcfg slug environment <name> | agentcfg slug ref <name> | agentcfg slug project <path>',
  async run(argv, io) {
    const args = parseArgs(argv, {});
    const [kind, name, ...extra] = args.positional;
    const slugOf = kind !== undefined && Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined;
    if (!slugOf) throw new UsageError('say which slug: environment, ref or project');
    if (name === undefined || extra.length) throw new UsageError('give exactly one name (quote it for the shell)');
    io.out(slugOf(name) + '\n');
    return 0;
  },
};
