/**
 * The yaml library, used within bounds that keep every check of a file linear in its size and far
 * from the end of the JavaScript stack, whatever the input.
 *
 * - The library parses (closing collections), composes nodes, converts them to data and visits them
 *   recursively, and so do our own checks. A document nested 1,000 levels deep exhausted the stack;
 *   near that end even V8's regular-expression compiler can fail, which aborts the process instead
 *   of throwing. So the text is lexed (iteratively), parsed one lexeme at a time with the parser's
 *   stack watched, and the token tree's nesting measured before anything else recursive runs: a file
 *   nested deeper than {@link MAX_YAML_DEPTH} is not composed at all.
 * - The library's duplicate-key check compares each key with every earlier one (quadratic in a
 *   mapping's size); duplicates are found here in one pass instead.
 * - Aliases let a small document stand for deep data (`b: &b [*a, [*a]]`, and so on): the data's
 *   depth, aliases expanded, is measured too before the document is converted to data.
 * - A mapping key that is itself a list or mapping (`{[a]: b}`, `? [a] : b`) is turned into a string
 *   by the library when it converts to data, once per level of nesting of such keys (a 3 KB file of
 *   nested flow mappings took seconds), with a warning on the process's stderr. GitLab rejects such
 *   keys anyway, so they are reported and replaced by a short string of their text before conversion.
 */
import { type Alias, Composer, isAlias, isCollection, isMap, isNode, isPair, isScalar, Lexer, Parser, Scalar, type CST, type Document, type Node } from 'yaml';
import type { EngineDiagnostic } from '../diagnostics';
import type { TextIndex } from '../text/textIndex';
import { duplicateKeysOfMap, type ComposedYaml, type DuplicateKey, type YamlOptions } from './composedYaml';
import { fastComposeYaml, fastPathApplies } from './fastBlockYaml';

/**
 * How deep lists and mappings may nest before this tool stops reading a file. An agent
 * configuration's deepest value is 9 levels down (`ci_access.projects[].access_as.impersonate.extra[].val`)
 * and the Kubernetes objects of an environment template rarely go past 20 (a HelmRelease's
 * free-form `values` being the deepest); 64 leaves room for those, while the recursion it allows
 * (the library's, ajv's, our checks') stays a small fraction of the stack. GitLab's YAML reader
 * (go-yaml) accepts thousands of levels, so the message says that this tool stops, not GitLab.
 */
export const MAX_YAML_DEPTH = 64;

/** Key text kept when a collection key is replaced: enough to recognise it, and bounded. */
const MAX_KEY_TEXT = 64;

/**
 * `parseAllDocuments` without its recursion risks: the token tree is built with the parser's stack
 * watched, and its nesting is checked before the composer (recursive) sees it. The library never
 * logs (its warnings are in each document's `warnings`).
 */
export function composeYaml(text: string, options: YamlOptions): ComposedYaml {
  // Block YAML of the common subset is read in one pass into the same documents (fastBlockYaml.ts);
  // anything else, errors included, is the library's.
  if (fastPathApplies(options)) {
    const fast = fastComposeYaml(text, options);
    if (fast) return fast;
  }
  return composeYamlWithLibrary(text, options);
}

/** {@link composeYaml} by the library alone (the reference the fast reader is tested and measured against). */
export function composeYamlWithLibrary(text: string, options: YamlOptions): ComposedYaml {
  // Each syntax problem is a YAMLError; a text of random bytes has tens of thousands, and capturing
  // a stack trace for each (never read: only message and position are) was most of the time spent.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    const tokens = boundedTokens(text);
    if (!Array.isArray(tokens)) return { ok: false, tooDeepAt: tokens.tooDeepAt };
    const tooDeepAt = tooDeepToken(tokens);
    if (tooDeepAt !== null) return { ok: false, tooDeepAt };
    const composer = new Composer({ ...options, logLevel: 'error' });
    return { ok: true, docs: Array.from(composer.compose(tokens)) as Document.Parsed[] };
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

/**
 * The parser's stack holds the document, the open collections and a scalar or two. Past the bound
 * by this much it stops: the parser closes collections recursively, one level per open one, when a
 * line dedents (`- - - - …` then a dedent took the stack down at about 1,000 levels).
 */
const PARSER_STACK_SLACK = 4;

/**
 * The token tree of `text`, lexed (iteratively) and parsed one lexeme at a time so that the parser's
 * stack never grows past the bound; where it first went past the nesting bound when it would.
 */
function boundedTokens(text: string): CST.Token[] | { tooDeepAt: number } {
  const parser = new Parser();
  const tokens: CST.Token[] = [];
  let firstOver: number | null = null;
  for (const lexeme of new Lexer().lex(text)) {
    const at = parser.offset;
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (firstOver === null && parser.stack.length > MAX_YAML_DEPTH + 1) firstOver = at;
    if (parser.stack.length > MAX_YAML_DEPTH + PARSER_STACK_SLACK) return { tooDeepAt: firstOver ?? at };
  }
  for (const token of parser.end()) tokens.push(token);
  return tokens;
}

/** Why a file nested past {@link MAX_YAML_DEPTH} is not checked, and what to do. */
export const TOO_DEEP_MESSAGE =
  `Lists and mappings nested more than ${MAX_YAML_DEPTH} levels deep: this tool stops reading the file here, so nothing in it is checked. ` +
  'Agent configurations nest at most 9 levels and Kubernetes objects rarely more than 20: flatten the structure.';

/** The diagnostic for a text nested deeper than {@link MAX_YAML_DEPTH}, at the collection that goes past it. */
export function tooDeepDiagnostic(index: TextIndex, offset: number): EngineDiagnostic {
  return { range: index.range(offset, offset + 1), severity: 'error', code: 'yaml.tooDeep', message: TOO_DEEP_MESSAGE };
}

/** Why GitLab rejects a key that is a list or a mapping. */
export const COLLECTION_KEY_MESSAGE =
  'A mapping key that is a list or a mapping: GitLab reads YAML as JSON-like data, whose keys are strings, so it rejects the file (go-yaml: invalid map key). Use a string key.';

/** Offset of the first collection token nested deeper than the bound; null when none is. Iterative. */
function tooDeepToken(tokens: readonly CST.Token[]): number | null {
  const stack: { token: CST.Token; depth: number }[] = tokens.map((token) => ({ token, depth: 0 }));
  while (stack.length) {
    const { token, depth } = stack.pop()!;
    const children: (CST.Token | null | undefined)[] = [];
    let level = depth;
    switch (token.type) {
      case 'document':
        children.push(token.value);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        level = depth + 1;
        if (level > MAX_YAML_DEPTH) return token.offset;
        for (const item of token.items) children.push(item.key, item.value);
        break;
      case 'block-scalar':
        children.push(...token.props);
        break;
      default:
        break;
    }
    for (const child of children) if (child) stack.push({ token: child, depth: level });
  }
  return null;
}

/**
 * Where the document's data, aliases expanded, nests deeper than the bound (the node's start), or
 * null. Each node is measured once (memoized), so this is linear in the document's nodes.
 */
export function dataTooDeepAt(doc: Document.Parsed): number | null {
  // Without aliases the data is exactly as deep as the tree: one plain walk answers when that is within the bound.
  const depth = treeDepthWithoutAliases(doc.contents);
  if (depth !== null && depth <= MAX_YAML_DEPTH) return null;
  const targets = aliasTargets(doc);
  const depthOf = new Map<Node, number>();
  const visiting = new Set<Node>();
  const stack: { node: Node; expanded: boolean }[] = doc.contents ? [{ node: doc.contents, expanded: false }] : [];
  while (stack.length) {
    const top = stack[stack.length - 1];
    const { node } = top;
    if (depthOf.has(node)) {
      stack.pop();
      continue;
    }
    const children = childrenOf(node, targets);
    if (!top.expanded) {
      top.expanded = true;
      visiting.add(node);
      for (const child of children) {
        // An alias to a node still being measured is a cycle: its data would be infinitely deep.
        if (visiting.has(child)) return node.range?.[0] ?? 0;
        if (!depthOf.has(child)) stack.push({ node: child, expanded: false });
      }
      continue;
    }
    stack.pop();
    visiting.delete(node);
    const below = children.reduce((max, child) => Math.max(max, depthOf.get(child) ?? 0), 0);
    const depth = (isCollection(node) ? 1 : 0) + below;
    if (depth > MAX_YAML_DEPTH) return node.range?.[0] ?? 0;
    depthOf.set(node, depth);
  }
  return null;
}

/** How deep collections nest in the tree under `root` (keys included); null when it holds an alias. Iterative. */
function treeDepthWithoutAliases(root: unknown): number | null {
  const nodes: unknown[] = [root];
  const depths: number[] = [0];
  let max = 0;
  while (nodes.length) {
    const node = nodes.pop();
    const depth = depths.pop()!;
    if (isAlias(node)) return null;
    if (!isCollection(node)) continue;
    const level = depth + 1;
    if (level > max) max = level;
    for (const item of node.items) {
      if (isPair(item)) {
        if (item.key && typeof item.key === 'object') {
          nodes.push(item.key);
          depths.push(level);
        }
        if (item.value && typeof item.value === 'object') {
          nodes.push(item.value);
          depths.push(level);
        }
      } else if (item && typeof item === 'object') {
        nodes.push(item);
        depths.push(level);
      }
    }
  }
  return max;
}

/**
 * The node each alias stands for: the last node before it (in document order) with its anchor, as
 * the library's `Alias.resolve` finds it. That method walks the whole document for each alias
 * (quadratic: a 400 KB file with an alias on every tenth line took 30 s), so this is one
 * iterative pass for all of them.
 */
export function aliasTargets(doc: Document.Parsed): Map<Alias, Node> {
  const targets = new Map<Alias, Node>();
  const anchored = new Map<string, Node>();
  const stack: unknown[] = [doc.contents];
  while (stack.length) {
    const node = stack.pop();
    if (!isNode(node)) continue;
    if (isAlias(node)) {
      const target = anchored.get(node.source);
      if (target) targets.set(node, target);
      continue;
    }
    if (node.anchor) anchored.set(node.anchor, node);
    if (!isCollection(node)) continue;
    // Pushed in reverse so that items (and a pair's key before its value) are visited in order.
    for (let i = node.items.length - 1; i >= 0; i--) {
      const item = node.items[i];
      if (isPair(item)) stack.push(item.value, item.key);
      else stack.push(item);
    }
  }
  return targets;
}

/** The nodes a node's data is made of: items, keys and values; an alias's target. */
function childrenOf(node: Node, targets: ReadonlyMap<Alias, Node>): Node[] {
  if (isAlias(node)) {
    const target = targets.get(node);
    return target ? [target] : [];
  }
  if (!isCollection(node)) return [];
  const out: Node[] = [];
  for (const item of node.items) {
    if (isPair(item)) {
      if (item.key && typeof item.key === 'object') out.push(item.key as Node);
      if (item.value && typeof item.value === 'object') out.push(item.value as Node);
    } else if (item && typeof item === 'object') {
      out.push(item as Node);
    }
  }
  return out;
}

/** What one pass over a document's mappings found. */
export interface MapProblems {
  /**
   * Keys given again in their mapping: `start` of this occurrence, `first` and `last` of the key in
   * that mapping (GitLab's YAML reader keeps the last value, docs/gitlab-behaviour.md#duplicate-keys).
   */
  readonly duplicateKeys: DuplicateKey[];
  /** [start, end) of each key that was a list or a mapping (or an alias of one), now a string. */
  readonly collectionKeys: [number, number][];
}

/**
 * One linear pass over every mapping: finds duplicate keys (the yaml library's own check compares
 * each key with every earlier one, quadratic in a mapping's size) and replaces each key that is a
 * list or a mapping by a string of (at most 64 characters of) its text, so that converting to data
 * never stringifies nested keys (only the document converted to data needs it). Keys inside a
 * replaced key are not visited: they are gone.
 */
export function inspectMaps(doc: Document.Parsed, text: string, options: { replaceCollectionKeys: boolean }): MapProblems {
  const duplicateKeys: DuplicateKey[] = [];
  const collectionKeys: [number, number][] = [];
  // One map of keys, cleared for each mapping (its entries are read before the next mapping is).
  const keysOfMap: Map<unknown, number | number[]> = new Map();
  // Only an alias key needs the aliases' targets (a walk of the whole document): found on the first one.
  let targets: Map<Alias, Node> | null = null;
  const seen = new Set<Node>();
  const stack: Node[] = doc.contents ? [doc.contents] : [];
  while (stack.length) {
    const node = stack.pop()!;
    if (!isCollection(node) || seen.has(node)) continue;
    seen.add(node);
    // Before any key is replaced: only the keys written as scalars count.
    if (isMap(node)) duplicateKeysOfMap(node, duplicateKeys, keysOfMap);
    for (const item of node.items) {
      if (!isPair(item)) {
        if (isNode(item)) stack.push(item);
        continue;
      }
      const target = isAlias(item.key) ? (targets ??= aliasTargets(doc)).get(item.key) : item.key;
      if (options.replaceCollectionKeys && isCollection(target) && isNode(item.key)) {
        const [start, end] = item.key.range ?? [0, 0];
        const scalar = new Scalar(text.slice(start, Math.min(end, start + MAX_KEY_TEXT)).trim());
        scalar.range = [start, end, end];
        item.key = scalar;
        collectionKeys.push([start, end]);
      } else if (!isScalar(item.key) && isNode(item.key)) {
        stack.push(item.key);
      }
      if (isNode(item.value)) stack.push(item.value);
    }
  }
  return { duplicateKeys: duplicateKeys.sort((a, b) => a.start - b.start), collectionKeys: collectionKeys.sort((a, b) => a[0] - b[0]) };
}

/** A document's data, or where converting it would go past the bounds (or meet a collection key). */
export type BoundedData = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly at: number; readonly message: string };

/**
 * `doc.toJS` within the bounds, for documents read only as data (rendered templates): refused when
 * aliases make the data too deep or a key is a list or a mapping (GitLab rejects both).
 */
export function boundedData(doc: Document.Parsed, text: string, maxAliasCount: number): BoundedData {
  const tooDeepAt = dataTooDeepAt(doc);
  if (tooDeepAt !== null) return { ok: false, at: tooDeepAt, message: TOO_DEEP_MESSAGE };
  const [collectionKey] = inspectMaps(doc, text, { replaceCollectionKeys: true }).collectionKeys;
  if (collectionKey) return { ok: false, at: collectionKey[0], message: COLLECTION_KEY_MESSAGE };
  return { ok: true, value: doc.toJS({ maxAliasCount }) };
}
