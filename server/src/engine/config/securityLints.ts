import type { Node } from 'yaml';
import { matchEnvironment } from '../access/environmentMatcher';
import { allEntries, type AccessEntry, type CiAccessModel, type DataPath } from '../access/model';
import type { EngineDiagnostic, Range } from '../diagnostics';
import { guessEnvironmentTier } from '../vars/environment-tier';
import { ciEntryPath, keyAddedAfter, type GitlabVersion } from '../gitlab/gitlabVersions';
import { nodeAtPath, nodeSpan, type ParsedYaml } from '../yaml/yamlDocument';

/**
 * Security lints of `ci_access` (docs/gitlab-behaviour.md#security-lints): configurations GitLab
 * accepts that give more cluster access than their authors likely meant. Each is a warning with
 * its own code and a one-line reason; a user silences one with `# agentcfg-disable-next-line <code>`
 * on the line above, or for the whole project with the `disabledLints` setting.
 */
export const SECURITY_LINTS = {
  'security.unprotectedProduction': 'jobs of unprotected branches (anyone who can push a branch) reach a production environment through this entry',
  'security.agentIdentityShared': "every project this entry covers acts as the agent's own ServiceAccount, which usually holds the agent's broad cluster rights",
  'security.noEnvironmentFilter': 'every job of every project this entry covers gets the agent, whatever environment it deploys to',
  'security.broadImpersonation': 'the impersonated groups give cluster-wide rights to every job this entry covers',
  'security.wildcardEnvironment': 'the pattern "*" matches every environment, so the filter restricts nothing',
} as const;

export type SecurityLintCode = keyof typeof SECURITY_LINTS;

export function isSecurityLintCode(value: unknown): value is SecurityLintCode {
  return typeof value === 'string' && Object.hasOwn(SECURITY_LINTS, value);
}

/** Names a wildcard pattern is tried against: GitLab guesses the tier `production` for each. */
const PRODUCTION_PROBES = ['production', 'prod', 'live'];

/**
 * Whether an `environments` pattern reaches a production environment: its own text is a name
 * GitLab's tier guess files under production (`prd`, `eu-production`, `Live-1`, `production/*`;
 * `Environment#guess_tier`, unanchored and case-insensitive), or it matches one of the probes
 * (`prod*`, `*`). A job can also set `deployment_tier: production` on any name, which the file
 * cannot show.
 */
function reachesProduction(pattern: string): boolean {
  return guessEnvironmentTier(pattern) === 'production' || PRODUCTION_PROBES.some((name) => matchEnvironment(pattern, name).matches);
}

/**
 * Kubernetes groups whose members hold cluster-wide rights in a default cluster:
 * `system:masters` (cluster-admin, bypasses RBAC), and the groups every authenticated user or
 * service account belongs to (docs/gitlab-behaviour.md#security-lints).
 */
const BROAD_GROUPS = /^(system:masters|system:authenticated|system:serviceaccounts(:.*)?|system:nodes|system:unauthenticated)$/;

/** The comment that silences the lints named after it on the next line. */
const DISABLE_NEXT_LINE = /#\s*agentcfg-disable-next-line\b([^\n]*)/;

export interface SecurityLintOptions {
  readonly gitlabVersion: GitlabVersion;
  /** Codes silenced for the whole project (setting `gitlabAgentConfig.disabledLints`, `--disable-lint`). */
  readonly disabled?: readonly string[];
}

/**
 * The findings for every `ci_access` entry of `model`. Local to each entry (and to the file's text
 * for the comments), so the editor's per-entry re-checks give the same findings.
 */
export function securityLintDiagnostics(parsed: ParsedYaml, model: CiAccessModel, options: SecurityLintOptions): EngineDiagnostic[] {
  if (!parsed.doc) return [];
  const disabled = new Set(options.disabled ?? []);
  const out: EngineDiagnostic[] = [];
  const report = (code: SecurityLintCode, path: DataPath, part: 'key' | 'value', detail: string) => {
    const range = rangeAt(parsed, path, part);
    if (!range) return;
    // A silenced finding stays in the list, marked, for the reports that record suppressions.
    const suppressed = silencedByComment(parsed, range.start.line, code) ? 'inSource' : disabled.has(code) ? 'external' : undefined;
    out.push({ range, severity: 'warning', code, message: `${detail} Why: ${SECURITY_LINTS[code]}. Silence with "# agentcfg-disable-next-line ${code}" on the line above.`, ...(suppressed ? { suppressed } : {}) });
  };
  for (const entry of allEntries(model)) {
    // An `environments` that is not a list is a schema error already; it is no missing filter.
    const environmentsWritten = nodeAtPath(parsed.doc, [...entry.path, 'environments'])?.node != null;
    lintEntry(entry, options.gitlabVersion, environmentsWritten, report);
  }
  return out;
}

type Report = (code: SecurityLintCode, path: DataPath, part: 'key' | 'value', detail: string) => void;

function lintEntry(entry: AccessEntry, version: GitlabVersion, environmentsWritten: boolean, report: Report): void {
  const where = entry.kind === 'instance' ? 'ci_access.instance' : `${entry.kind} entry "${entry.id}"`;
  const head: DataPath = entry.kind === 'instance' ? entry.path : [...entry.path, 'id'];
  const headPart = entry.kind === 'instance' ? 'key' : 'value';
  const broad = entry.kind !== 'project';

  const productionPattern = entry.environments.findIndex(reachesProduction);
  if (productionPattern >= 0 && !entry.protectedBranchesOnly) {
    const added = keyAddedAfter(ciEntryPath(entry.kind, 'protected_branches_only'), version);
    const fix = added ? `GitLab ${added} adds protected_branches_only; until then keep production out of this entry.` : 'Set protected_branches_only: true.';
    report('security.unprotectedProduction', [...entry.path, 'environments', productionPattern], 'value', `The ${where} lets any branch's job deploy to "${entry.environments[productionPattern]}". ${fix}`);
  }

  if (broad && entry.accessAs === 'agent') {
    report('security.agentIdentityShared', head, headPart, `The ${where} uses access_as: agent (also the default when access_as is not set). Prefer ci_job or impersonate, with RBAC for just what the jobs need.`);
  }

  if (broad && entry.environments.length === 0 && !environmentsWritten) {
    report('security.noEnvironmentFilter', head, headPart, `The ${where} has no environments filter. List the environments its jobs deploy to.`);
  }

  for (const [i, group] of (entry.impersonate?.groups ?? []).entries()) {
    if (BROAD_GROUPS.test(group)) report('security.broadImpersonation', [...entry.path, 'access_as', 'impersonate', 'groups', i], 'value', `The ${where} impersonates the group "${group}". Impersonate a group bound to the rights the jobs need.`);
  }

  const star = entry.environments.findIndex((pattern) => /^\*+$/.test(pattern.trim()));
  if (star >= 0) report('security.wildcardEnvironment', [...entry.path, 'environments', star], 'value', `The ${where} lists the environment pattern "${entry.environments[star]}". Name the environments instead.`);
}

/** The lint is named (or all are, with no code) by a disable comment on the line above. */
function silencedByComment(parsed: ParsedYaml, line: number, code: SecurityLintCode): boolean {
  if (line === 0) return false;
  const start = parsed.index.offsetAt({ line: line - 1, character: 0 });
  const above = parsed.index.source.slice(start, parsed.index.lineEnd(line - 1));
  const match = DISABLE_NEXT_LINE.exec(above);
  if (!match) return false;
  const codes = match[1].split(/[\s,]+/).filter(Boolean);
  return codes.length === 0 || codes.includes(code);
}

function rangeAt(parsed: ParsedYaml, path: DataPath, part: 'key' | 'value'): Range | null {
  const target = nodeAtPath(parsed.doc!, path);
  const span = nodeSpan(part === 'key' ? (target?.pair?.key as Node | undefined) : target?.node) ?? nodeSpan(target?.pair?.key as Node | undefined);
  return span ? parsed.index.range(span[0], span[1]) : null;
}
