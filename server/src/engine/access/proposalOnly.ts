import type { Node } from 'yaml';
import type { CompatibilityTarget } from '../gitlab/compatibilityTarget';
import type { GitlabVersion } from '../gitlab/gitlabVersions';
import { nodeAtPath, nodeSpan, type ParsedYaml } from '../yaml/yamlDocument';
import type { EngineDiagnostic } from '../diagnostics';
import { allEntries, type CiAccessModel } from './model';

/** The code of the note on `rules` under the `proposal` target; stable, reports and tests key on it. */
export const PROPOSAL_ONLY_CODE = 'target.proposalOnly';

/**
 * Under the `proposal` target (the default) `rules` is checked and simulated, with nothing saying
 * that GitLab refuses it: no release ships the rules design, and KAS rejects a configuration with
 * an unknown key (docs/gitlab-behaviour.md#ci_access-rules-design,
 * docs/gitlab-behaviour.md#config-file-location-and-parsing). One note per file, on its first
 * `rules` key: it is the file GitLab rejects, and a note per entry would crowd out the problems of
 * a large file. Information, not an error: the target is the user's choice.
 */
export function proposalOnlyDiagnostic(parsed: ParsedYaml, model: CiAccessModel, settings: { readonly target: CompatibilityTarget; readonly gitlabVersion: GitlabVersion }): EngineDiagnostic | null {
  if (settings.target !== 'proposal' || !parsed.doc || parsed.hasSyntaxErrors) return null;
  const spans = allEntries(model)
    .filter((entry) => entry.rules !== undefined)
    .map((entry) => nodeSpan(nodeAtPath(parsed.doc!, [...entry.path, 'rules'])?.pair?.key as Node | undefined))
    .filter((span) => span !== null);
  if (!spans.length) return null;
  const [start, end] = spans.reduce((first, span) => (span[0] < first[0] ? span : first));
  const others = spans.length - 1;
  return {
    range: parsed.index.range(start, end),
    severity: 'information',
    code: PROPOSAL_ONLY_CODE,
    message:
      `GitLab would reject this file: "rules"${others ? ` (here and in ${others} more ${others > 1 ? 'entries' : 'entry'})` : ''} is the proposed rules design (gitlab-agent MR !714), ` +
      `which GitLab ${settings.gitlabVersion} does not have (no release ships it), and the agent refuses a configuration with an unknown key. ` +
      'It is checked here because the compatibility target is "proposal"; set gitlabAgentConfig.target (--target on the command line) to "gitlab" to check the file as GitLab reads it.',
    data: { target: settings.target, gitlabVersion: settings.gitlabVersion },
  };
}
