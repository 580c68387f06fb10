/**
 * `include:` as GitLab resolves it (lib/gitlab/ci/config/external/processor.rb, mapper): the included
 * files are deep-merged in order, each with its own includes already resolved, and the including
 * file's own content is merged last, so it wins (https://docs.gitlab.com/ci/yaml/#include,
 * https://docs.gitlab.com/ci/yaml/includes/#merge-method-for-include).
 *
 * Only `include:local` is read here (through the caller's reader; wildcards where the reader can
 * list files), never one with variables;
 * `remote`, `template`, `project`, `component` and `artifact` files live elsewhere and are reported as
 * not resolved, with the file and the line of the entry.
 */
import type { PipelineFileReader } from './model';
import { mergeMaps } from './merge';
import { inputValues, interpolateInputs } from './inputs';
import { readTree, type Loc, type TopLevelBlock, type TreeProblem, type YMap, type YNode } from './tree';

/** GitLab's default limit of includes per pipeline, nested ones included (https://docs.gitlab.com/ci/yaml/#include). */
export const MAX_INCLUDES = 150;

export interface LoadedConfig {
  /** The top-level mapping after every readable include was merged in; empty when nothing could be read. */
  readonly root: YMap;
  readonly problems: TreeProblem[];
  /** The text of every file read, by the name locations use. */
  readonly texts: Map<string, string>;
  /** Some include could not be read here: a missing `extends` parent or `!reference` target may be in it. */
  readonly incomplete: boolean;
  /** The including file's top-level entries, when it was read entry by entry. */
  readonly blocks?: readonly TopLevelBlock[];
}

const EMPTY = (file: string): YMap => ({ kind: 'map', entries: new Map(), loc: { file, start: 0, end: 0 } });

/**
 * Reads `text` (the file `file`) and its local includes, recursively, within {@link MAX_INCLUDES};
 * `previous` are the entries of an earlier reading of `file`, whose converted trees may be taken again.
 */
export function loadConfig(text: string, file: string, read: PipelineFileReader, previous?: readonly TopLevelBlock[]): LoadedConfig {
  const state: LoadState = { read, problems: [], texts: new Map([[file, text]]), includes: 0, limitReported: false, ...(previous ? { previous } : {}) };
  const root = loadFile(text, file, state, [file]);
  const incomplete = state.problems.some((p) => p.code === 'pipeline.includeNotResolved' || p.code === 'pipeline.includeMissing');
  return { root: root ?? EMPTY(file), problems: state.problems, texts: state.texts, incomplete, ...(state.blocks ? { blocks: state.blocks } : {}) };
}

interface LoadState {
  readonly read: PipelineFileReader;
  readonly problems: TreeProblem[];
  readonly texts: Map<string, string>;
  includes: number;
  limitReported: boolean;
  /** The first file's entries (the including file is read first). */
  blocks?: readonly TopLevelBlock[];
  /** The first file's entries in an earlier reading. */
  readonly previous?: readonly TopLevelBlock[];
}

function loadFile(text: string, file: string, state: LoadState, chain: readonly string[], inputs?: YNode): YMap | null {
  const first = chain.length === 1;
  const tree = readTree(text, file, first && state.previous ? { previous: state.previous } : {});
  if (first) state.blocks = tree.blocks;
  state.problems.push(...tree.problems);
  if (!tree.root) return null;
  if (tree.root.kind !== 'map') {
    state.problems.push({ loc: tree.root.loc, severity: 'error', code: 'pipeline.notAMapping', message: 'A CI/CD configuration file must be a mapping of keywords and jobs; GitLab rejects this file.' });
    return null;
  }
  // A file with a spec:inputs header has its inputs replaced before anything reads it.
  const root = tree.header || inputs ? interpolateInputs(tree.root, inputValues(tree.header, inputs)) : tree.root;
  const includeEntry = root.entries.get('include');
  if (!includeEntry) return root;
  let merged: YMap = EMPTY(file);
  for (const item of includeItems(includeEntry.value, state)) {
    const included = resolveItem(item, state, chain);
    if (included) merged = mergeMaps(merged, included);
  }
  const own = new Map(root.entries);
  own.delete('include');
  return mergeMaps(merged, { kind: 'map', entries: own, loc: root.loc });
}

/** One entry of `include:`: its kind (`local`, `remote`, …) and value, where it is written. */
interface IncludeItem {
  readonly kind: string;
  readonly value: string | null;
  readonly loc: Loc;
  readonly hasRules: boolean;
  /** `inputs:` the include gives the file. */
  readonly inputs?: YNode;
}

const KINDS = ['local', 'remote', 'template', 'project', 'component', 'artifact'] as const;

function includeItems(node: YNode, state: LoadState): IncludeItem[] {
  const items = node.kind === 'seq' ? node.items : [node];
  const out: IncludeItem[] = [];
  for (const item of items) {
    if (item.kind === 'scalar' && item.value === null) continue;
    if (item.kind === 'scalar' && typeof item.value === 'string') {
      // The short form: a URL is `remote`, anything else `local` (lib/gitlab/ci/config/external/mapper/normalizer.rb).
      out.push({ kind: /^https?:\/\//i.test(item.value) ? 'remote' : 'local', value: item.value, loc: item.loc, hasRules: false });
    } else if (item.kind === 'map') {
      const kind = KINDS.find((k) => item.entries.has(k));
      if (!kind) {
        state.problems.push({ loc: item.loc, severity: 'error', code: 'pipeline.includeUnknown', message: `This include has none of ${KINDS.join(', ')}: GitLab rejects it.` });
        continue;
      }
      const value = item.entries.get(kind)!.value;
      const inputs = item.entries.get('inputs')?.value;
      out.push({ kind, value: value.kind === 'scalar' ? value.text : null, loc: item.loc, hasRules: item.entries.has('rules'), ...(inputs ? { inputs } : {}) });
    } else {
      state.problems.push({ loc: item.loc, severity: 'error', code: 'pipeline.includeShape', message: 'An include must be a file path or a mapping such as `local: path/to/file.yml`.' });
    }
  }
  return out;
}

function resolveItem(item: IncludeItem, state: LoadState, chain: readonly string[]): YMap | null {
  const where = item.value ? ` (${item.value})` : '';
  if (item.kind !== 'local') {
    state.problems.push({
      loc: item.loc,
      severity: 'information',
      code: 'pipeline.includeNotResolved',
      message: `include:${item.kind}${where} is not resolved here: its file is not in this workspace, so jobs it defines or changes are not shown.`,
    });
    return null;
  }
  const raw = item.value ?? '';
  const wildcard = raw.includes('*') && !/[$%]/.test(raw) && state.read.list !== undefined;
  if (!wildcard && /[*$%]/.test(raw)) {
    const why = raw.includes('*') ? 'a wildcard' : 'a CI/CD variable';
    state.problems.push({ loc: item.loc, severity: 'information', code: 'pipeline.includeNotResolved', message: `include:local${where} uses ${why}, which is not resolved here: the files it matches are not read.` });
    return null;
  }
  if (item.hasRules) {
    state.problems.push({
      loc: item.loc,
      severity: 'information',
      code: 'pipeline.includeRules',
      message: `include:local${where} has rules: GitLab includes it only when they match; it is read here as if they always do.`,
    });
  }
  return wildcard ? resolveWildcard(item, raw, state, chain) : resolveLocal(item, raw.replace(/^\/+/, ''), state, chain);
}

/**
 * `include:local` with `*` or `**`: every repository file the pattern matches, in path order, each
 * included as a local file. GitLab turns the whole path into a regular expression, `**` matching
 * any characters and `*` any but `/` (`Repository#search_files_by_wildcard_path`, app/models/repository.rb).
 */
function resolveWildcard(item: IncludeItem, raw: string, state: LoadState, chain: readonly string[]): YMap | null {
  const pattern = raw.replace(/^\/+/, '');
  const directory = pattern.slice(0, pattern.lastIndexOf('/', pattern.indexOf('*')) + 1);
  const matches = wildcardRegExp(pattern);
  const files = [...new Set(state.read.list!(directory.replace(/\/$/, '')))].filter((file) => matches.test(file)).sort();
  if (!files.length) {
    state.problems.push({ loc: item.loc, severity: 'information', code: 'pipeline.includeNoMatch', message: `include:local (${raw}) matches no file here, so it includes nothing.` });
    return null;
  }
  let merged: YMap | null = null;
  for (const file of files) {
    // Each match is included as a bare `local:` entry: the pattern's inputs do not go with it
    // (lib/gitlab/ci/config/external/mapper/location_expander.rb).
    const included = resolveLocal({ kind: 'local', value: file, loc: item.loc, hasRules: item.hasRules }, file, state, chain);
    if (included) merged = merged ? mergeMaps(merged, included) : included;
  }
  return merged;
}

/** GitLab's reading of a wildcard path: everything literal but `**` (any characters) and `*` (any but `/`), anchored at both ends. */
export function wildcardRegExp(pattern: string): RegExp {
  const parts = pattern.split('**').map((part) => part.split('*').map((text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('[^/]*?'));
  return new RegExp(`^${parts.join('.*?')}$`);
}

function resolveLocal(item: IncludeItem, path: string, state: LoadState, chain: readonly string[]): YMap | null {
  if (chain.includes(path)) {
    state.problems.push({ loc: item.loc, severity: 'error', code: 'pipeline.includeLoop', message: `${path} includes itself (${[...chain, path].join(' → ')}): GitLab stops at its limit of ${MAX_INCLUDES} includes and rejects the pipeline.` });
    return null;
  }
  if (state.includes >= MAX_INCLUDES) {
    if (!state.limitReported) {
      state.limitReported = true;
      state.problems.push({ loc: item.loc, severity: 'error', code: 'pipeline.includeLimit', message: `More than ${MAX_INCLUDES} includes: GitLab rejects the pipeline (Maximum of ${MAX_INCLUDES} nested includes are allowed).` });
    }
    return null;
  }
  state.includes++;
  if (!/\.ya?ml$/i.test(path)) {
    state.problems.push({ loc: item.loc, severity: 'error', code: 'pipeline.includeExtension', message: `Included file ${path} does not end in .yml or .yaml: GitLab rejects it.` });
    return null;
  }
  const text = state.read(path);
  if (text === null) {
    state.problems.push({ loc: item.loc, severity: 'error', code: 'pipeline.includeMissing', message: `Local file ${path} does not exist: GitLab rejects the pipeline.` });
    return null;
  }
  state.texts.set(path, text);
  return loadFile(text, path, state, [...chain, path], item.inputs);
}
