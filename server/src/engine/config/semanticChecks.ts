import { isRecord } from '../data';
import type { EngineDiagnostic } from '../diagnostics';
import { authorizedEntityLimit, MAX_AUTHORIZED_ENTITIES, NEWEST_GITLAB_VERSION, type GitlabVersion } from '../gitlab/gitlabVersions';
import { humanPath } from './schemaDiagnostics';
import { nodeAtPath, nodeSpan, type ParsedYaml } from '../yaml/yamlDocument';

/** GitLab reads at most this many bytes of config.yaml (KAS default, docs/gitlab-behaviour.md#config-file-location-and-parsing). */
export const MAX_CONFIG_BYTES = 128 * 1024;


const LIMITED_LISTS: readonly (readonly string[])[] = [
  ['ci_access', 'projects'],
  ['ci_access', 'groups'],
  ['user_access', 'projects'],
  ['user_access', 'groups'],
];

/** Agent names are RFC 1123 labels (docs/gitlab-behaviour.md#config-file-location-and-parsing). */
const AGENT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The size check, which needs nothing but the byte count: it comes first and stays even when every
 * other check of the file fails (the editor reports an internal failure next to it).
 */
export function sizeDiagnostic(bytes: number, firstLine: EngineDiagnostic['range']): EngineDiagnostic | null {
  if (bytes <= MAX_CONFIG_BYTES) return null;
  return { range: firstLine, severity: 'warning', code: 'config.tooLarge', message: `The file is ${formatKiB(bytes)}; GitLab refuses agent configurations over 128 KiB, so the agent would not load it.` };
}

/**
 * Checks that need more than the schema: size, list limits, duplicate ids, the agent name, emptiness.
 * The list limit is that of `version` (100 before 17.0, 500 from it: `authorizedEntityLimit`); ids
 * past it are not compared, GitLab never reads them.
 */
export function semanticDiagnostics(parsed: ParsedYaml, agentName: string | undefined, uniqueIdLists?: ReadonlySet<string>, version: GitlabVersion = NEWEST_GITLAB_VERSION): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const firstLine = parsed.index.range(0, parsed.index.lineEnd(0));

  const tooLarge = sizeDiagnostic(parsed.index.utf8Length, firstLine);
  if (tooLarge) out.push(tooLarge);

  if (agentName !== undefined && (!AGENT_NAME.test(agentName) || agentName.length > 63)) {
    out.push({
      range: firstLine,
      severity: 'error',
      code: 'config.agentName',
      message: `The agent directory name "${agentName}" is not a valid agent name: at most 63 lowercase letters, digits and "-", starting and ending with a letter or digit.`,
    });
  }

  if (parsed.value === null && !parsed.hasSyntaxErrors) {
    out.push({
      range: firstLine,
      severity: 'information',
      code: 'config.empty',
      message: 'The configuration is empty: the agent runs with its defaults and no CI/CD job or user is authorized to use it.',
    });
  }

  if (parsed.doc && isRecord(parsed.value)) {
    const limit = authorizedEntityLimit(version);
    for (const listPath of LIMITED_LISTS) {
      const list = getIn(parsed.value, listPath);
      if (!Array.isArray(list)) continue;
      if (list.length > limit) {
        const first = nodeSpan(nodeAtPath(parsed.doc, [...listPath, limit])?.node);
        const raised = limit < MAX_AUTHORIZED_ENTITIES ? ` (GitLab ${version}; 17.0 raised the limit to ${MAX_AUTHORIZED_ENTITIES})` : '';
        out.push({
          range: first ? parsed.index.range(first[0], first[1]) : firstLine,
          severity: 'warning',
          code: 'config.entryLimit',
          message: `${humanPath(listPath)} has ${list.length} entries; GitLab honours only the first ${limit}${raised}, so this entry and the ${list.length - limit - 1} after it are ignored.`,
        });
      }
      // Without an id given twice in the whole list (the incremental model counts them), none is in its first `limit` entries.
      if (!uniqueIdLists?.has(listPath.join('.'))) out.push(...duplicateIds(parsed, listPath, list.length > limit ? list.slice(0, limit) : list));
    }
  }
  return out;
}

/** GitLab matches ids case-insensitively and a later duplicate replaces an earlier one (docs/gitlab-behaviour.md#ci_access-entries). */
function duplicateIds(parsed: ParsedYaml, listPath: readonly string[], list: unknown[]): EngineDiagnostic[] {
  const out: EngineDiagnostic[] = [];
  const lastIndexById = new Map<string, number>();
  let withIds = 0;
  list.forEach((entry, i) => {
    if (isRecord(entry) && typeof entry.id === 'string') {
      lastIndexById.set(lowerCaseId(entry, entry.id), i);
      withIds++;
    }
  });
  if (lastIndexById.size === withIds) return out; // every id once: nothing to report
  list.forEach((entry, i) => {
    if (!isRecord(entry) || typeof entry.id !== 'string') return;
    const winner = lastIndexById.get(lowerCaseId(entry, entry.id));
    if (winner === undefined || winner === i) return;
    const node = nodeAtPath(parsed.doc!, [...listPath, i, 'id'])?.node;
    const winnerNode = nodeAtPath(parsed.doc!, [...listPath, winner, 'id'])?.node;
    const span = nodeSpan(node);
    const winnerSpan = nodeSpan(winnerNode);
    if (!span) return;
    const winnerLine = winnerSpan ? parsed.index.positionAt(winnerSpan[0]).line + 1 : undefined;
    out.push({
      range: parsed.index.range(span[0], span[1]),
      severity: 'warning',
      code: 'config.duplicateId',
      message: `Duplicate id "${entry.id}" in ${humanPath(listPath)} (ids are compared case-insensitively): GitLab keeps only the later entry${winnerLine ? ` (line ${winnerLine})` : ''}, so this one has no effect.`,
    });
  });
  return out;
}

/**
 * Lower-cased ids by entry: the editor's model keeps an entry's data object while its text does
 * not change, so a keystroke lower-cases only the entries it touched.
 */
const lowerCaseIds = new WeakMap<object, { readonly id: string; readonly lower: string }>();

function lowerCaseId(entry: object, id: string): string {
  const known = lowerCaseIds.get(entry);
  if (known?.id === id) return known.lower;
  const lower = id.toLowerCase();
  lowerCaseIds.set(entry, { id, lower });
  return lower;
}

function formatKiB(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

function getIn(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}
