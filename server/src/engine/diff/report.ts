/**
 * The faces of the access diff: text for a terminal, JSON for tools, markdown for a
 * merge-request comment (a summary line and a table; nothing at all when nothing changes).
 */
import type { AccessChange, AccessState, ChangeKind } from './accessChange';

/** Where each agent's files are, to name the lines of a change (`config.yaml:12`). */
export interface AgentFilePaths {
  readonly config: string;
  readonly template: string;
  /** `.gitlab-ci.yml`, for changes of pipeline jobs. */
  readonly pipeline: string;
}

/** The paths of an agent's files in the old or new version. */
export type AgentFiles = (agent: string, version: 'before' | 'after') => AgentFilePaths;

/** A change as `agentcfg diff --format json` prints it (the documented contract). */
export function changeJson(change: AccessChange, files: AgentFiles) {
  return {
    project: change.project,
    scenario: change.scenario,
    ...(change.job !== undefined ? { job: change.job } : {}),
    kind: change.kind,
    kinds: change.kinds,
    severity: change.severity,
    production: change.production,
    agent: change.agent,
    context: change.context,
    before: stateJson(change.before),
    after: stateJson(change.after),
    lines: locations(change, files),
  };
}

function stateJson(state: AccessState) {
  return {
    authorized: state.authorized,
    namespace: state.namespace,
    identity: state.identity,
    access_as: state.accessAs,
    via: state.via,
    rule: state.rule,
    objects: state.objects,
    denial: state.denial,
  };
}

/** 1-based lines of the files responsible, with the version each is in. */
function locations(change: AccessChange, files: AgentFiles) {
  return change.lines.map((l) => ({ file: files(change.agent, l.version)[l.file], version: l.version, line: l.line + 1 }));
}

const KIND_WORDS: Readonly<Record<ChangeKind, (n: number) => string>> = {
  gained: (n) => `${n} gain${n === 1 ? 's' : ''} access`,
  lost: (n) => `${n} lose${n === 1 ? 's' : ''} access`,
  identity: (n) => `${n} change${n === 1 ? 's' : ''} identity`,
  namespace: (n) => `${n} move${n === 1 ? 's' : ''} to another namespace`,
  objects: (n) => `${n} change${n === 1 ? 's' : ''} the managed environment's objects`,
  via: (n) => `${n} ${n === 1 ? 'is' : 'are'} decided by another entry or rule`,
};

/** `5 job situations change: 2 gain access (2 in production), 3 move to another namespace`. */
export function summaryLine(changes: readonly AccessChange[]): string {
  const parts = (Object.keys(KIND_WORDS) as ChangeKind[]).flatMap((kind) => {
    const of = changes.filter((c) => c.kind === kind);
    if (!of.length) return [];
    const production = of.filter((c) => c.production).length;
    return [`${KIND_WORDS[kind](of.length)}${(kind === 'gained' || kind === 'lost') && production ? ` (${production} in production)` : ''}`];
  });
  return `${changes.length} job situation${changes.length === 1 ? '' : 's'} change${changes.length === 1 ? 's' : ''}: ${parts.join(', ')}`;
}

function stateText(state: AccessState, kind: ChangeKind): string {
  if (!state.authorized) return `denied${state.denial ? ` (${state.denial})` : ''}`;
  const where = state.namespace === null ? 'with no namespace' : `in ${state.namespace}`;
  const via = state.via ? ` via ${state.via}${state.rule !== null ? ` rule ${state.rule}` : ''}` : '';
  const objects = kind === 'objects' ? `; managed objects: ${state.objects?.length ? state.objects.join('; ') : 'none'}` : '';
  return `authorized ${where} as ${state.identity ?? '?'}${via}${objects}`;
}

/** Blocks of four lines, most severe first. */
export function diffText(changes: readonly AccessChange[], base: string, files: AgentFiles): string {
  base = shortRevision(base);
  if (!changes.length) return `No CI/CD access changes compared with ${base}.\n`;
  const blocks = changes.map((c) => {
    const lines = locations(c, files).map((l) => `${l.file}:${l.line}${l.version === 'before' ? ' (old version)' : ''}`);
    return [
      `${c.severity.padEnd(8)} ${c.kind.padEnd(9)} ${c.project} · ${c.scenario} · agent ${c.agent}`,
      `  before: ${stateText(c.before, c.kind)}`,
      `  after:  ${stateText(c.after, c.kind)}`,
      ...(lines.length ? [`  at ${lines.join(', ')}`] : []),
    ].join('\n');
  });
  return `${summaryLine(changes)} (compared with ${base}).\n\n${blocks.join('\n\n')}\n`;
}

/** Rows beyond this are counted, not shown: a comment stays readable and under GitLab's note size. */
export const MAX_MARKDOWN_ROWS = 100;

/** A summary line and a table for a merge-request comment; '' when nothing changes. */
export function diffMarkdown(changes: readonly AccessChange[], base: string, files: AgentFiles): string {
  if (!changes.length) return '';
  base = shortRevision(base);
  const shown = changes.slice(0, MAX_MARKDOWN_ROWS);
  const rows = shown.map((c) => {
    const lines = locations(c, files).map((l) => code(`${l.file}:${l.line}`) + (l.version === 'before' ? ' (old)' : ''));
    return `| ${[c.severity === 'critical' ? '**critical**' : c.severity, c.kind, code(c.agent), code(c.project), cell(c.scenario), stateCell(c.before, c.kind), stateCell(c.after, c.kind), lines.join('<br>')].join(' | ')} |`;
  });
  const more = changes.length > shown.length ? [``, `… and ${changes.length - shown.length} more (\`agentcfg diff --format json\` lists every change).`] : [];
  return [
    `**CI/CD access diff** (compared with ${code(base)}): ${summaryLine(changes)}.`,
    '',
    '| Severity | Change | Agent | Project | Scenario | Before | After | Lines |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    ...more,
  ].join('\n') + '\n';
}

function stateCell(state: AccessState, kind: ChangeKind): string {
  if (!state.authorized) return `denied${state.denial ? `: ${cell(state.denial)}` : ''}`;
  const main = `authorized ${state.namespace === null ? '(no namespace)' : `in ${code(state.namespace)}`} as ${code(state.identity ?? '?')}`;
  const via = kind === 'via' && state.via ? `<br>via ${cell(state.via)}${state.rule !== null ? ` rule ${state.rule}` : ''}` : '';
  const objects = kind === 'objects' ? `<br>${state.objects?.length ? state.objects.map(code).join('<br>') : 'no managed objects'}` : '';
  return main + via + objects;
}

/** A full commit id (`$CI_MERGE_REQUEST_DIFF_BASE_SHA`) is shown by its first 12 digits, as GitLab shows commits; other names as given. */
function shortRevision(base: string): string {
  return /^[0-9a-f]{40}([0-9a-f]{24})?$/i.test(base) ? base.slice(0, 12) : base;
}

/** Text in a table cell: no line breaks, no column separators, no HTML, no emphasis or links (`review/*`). */
function cell(text: string): string {
  return text.replace(/\r?\n/g, ' ').replace(/[\\`*_[\]~|]/g, (c) => `\\${c}`).replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A code span in a table cell (a `|` still needs its backslash inside one). */
function code(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\r?\n/g, ' ').replace(/\|/g, '\\|')}\``;
}

/** A lens above a line of the new version that changes access: `vs main: grants production access to tag release, …`. */
export interface ChangeLens {
  readonly agent: string;
  /** The file the line is in: the agent's config or template. */
  readonly file: 'config' | 'template';
  readonly line: number;
  readonly title: string;
}

const LENS_VERBS: Readonly<Record<ChangeKind, string>> = {
  gained: 'grants access to',
  lost: 'removes access from',
  identity: 'changes the identity of',
  namespace: 'moves to another namespace',
  objects: 'changes the managed objects of',
  via: 'changes which entry or rule decides',
};

/** One lens per changed line of the new version (entries and rules; removed ones have no line there), in file order; each names the most severe kinds first. */
export function changeLenses(changes: readonly AccessChange[], base: string): ChangeLens[] {
  const groups = new Map<string, { agent: string; file: 'config' | 'template'; line: number; changes: AccessChange[] }>();
  for (const change of changes) {
    for (const l of change.lines) {
      if (l.version !== 'after' || l.file === 'pipeline') continue;
      const key = `${change.agent}\u0000${l.file}\u0000${l.line}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { agent: change.agent, file: l.file, line: l.line, changes: [] }));
      group.changes.push(change);
    }
  }
  const ordered = [...groups.values()].sort((a, b) => (a.agent < b.agent ? -1 : a.agent > b.agent ? 1 : a.file.localeCompare(b.file) || a.line - b.line));
  return ordered.map((g) => {
    const parts = (Object.keys(LENS_VERBS) as ChangeKind[]).flatMap((kind) => {
      const of = g.changes.filter((c) => c.kind === kind);
      if (!of.length) return [];
      const production = kind === 'gained' && of.some((c) => c.production) ? 'production ' : '';
      const verb = production ? LENS_VERBS.gained.replace('access', 'production access') : LENS_VERBS[kind];
      const situations = [...new Set(of.map((c) => (c.project === of[0].project ? c.scenario : `${c.project} ${c.scenario}`)))];
      return [`${verb} ${situations.slice(0, 3).join(', ')}${situations.length > 3 ? `, +${situations.length - 3}` : ''}`];
    });
    const critical = g.changes.some((c) => c.severity === 'critical') ? '⚠ ' : '';
    return { agent: g.agent, file: g.file, line: g.line, title: `${critical}vs ${base}: ${parts.join('; ')}` };
  });
}
