/**
 * GitLab's template functions (docs/gitlab-behaviour.md#template-variables-and-functions): `lower`, `substr`, `replace`, `trimPrefix`, `trimSuffix`,
 * `slugify`, with sprig's names, argument order and Go parameter types — so a piped value is the last
 * argument (`{{ .project.slug | replace "_" "-" }}`) and a wrongly typed argument fails as it would in KAS.
 */
import { FunctionError, runtimeError, type TemplateFunction } from './callable';
import { GO_BUILTINS } from './builtins';
import { MAX_RENDER_CHARS, RenderLimitExceeded } from './limits';
import { goTypeName, type GoValue } from './values';

const UTF8_ENCODER = new TextEncoder();
const UTF8_DECODER = new TextDecoder();

/** Go's `s[from:to]` on the UTF-8 bytes of `s`, with Go's panic messages. */
function sliceBytes(s: string, from: number | undefined, to: number | undefined): string {
  const bytes = UTF8_ENCODER.encode(s);
  const len = bytes.length;
  if (from === undefined) {
    const end = to as number;
    if (end < 0) throw runtimeError(`slice bounds out of range [:${end}]`);
    if (end > len) throw runtimeError(`slice bounds out of range [:${end}] with length ${len}`);
    return UTF8_DECODER.decode(bytes.slice(0, end));
  }
  const end = to ?? len;
  if (to !== undefined && end > len) throw runtimeError(`slice bounds out of range [:${end}] with length ${len}`);
  if (from > end) throw runtimeError(`slice bounds out of range [${from}:${end}]`);
  return UTF8_DECODER.decode(bytes.slice(from, end));
}

/**
 * sprig's `substr` (`substring(start, end int, s string)`): `start < 0` → `s[:end]`; `end < 0` or past the
 * end → `s[start:]`; else `s[start:end]`. Indexes count bytes. Where Go would panic (e.g. `start > end`),
 * this reports Go's runtime error, which KAS turns into a template error.
 */
export function substr(start: number, end: number, s: string): string {
  if (start < 0) return sliceBytes(s, undefined, end);
  if (end < 0 || end > UTF8_ENCODER.encode(s).length) return sliceBytes(s, start, undefined);
  return sliceBytes(s, start, end);
}

/**
 * Go's `strings.ReplaceAll`: an empty `old` matches before every character and at the end. The result's
 * length is known before it is built: one past the bound stops rendering (a few chained replaces of ""
 * would otherwise build strings of billions of characters).
 */
function replaceAll(s: string, old: string, replacement: string): string {
  const parts = old !== '' ? s.split(old) : null;
  const matches = parts ? parts.length - 1 : Array.from(s).length + 1;
  if (s.length + matches * (replacement.length - old.length) > MAX_RENDER_CHARS) throw new RenderLimitExceeded();
  if (parts) return parts.join(replacement);
  return s === '' ? replacement : replacement + Array.from(s).join(replacement) + replacement;
}

/** Longest slug `slugify` returns without an explicit length: a DNS-1123 label. */
export const SLUGIFY_DEFAULT_LENGTH = 63;

/**
 * `slugify [<len>] <string>` — an RFC 1123 label. GitLab's exact algorithm is not published (docs/gitlab-behaviour.md#template-variables-and-functions);
 * chosen here: lowercase, every character outside `[a-z0-9]` → `-`, collapse dash runs, trim dashes
 * at both ends, cut to `length` (default 63), trim trailing dashes again (the cut may end on one).
 * `slugify "hello WORLD"` → `hello-world`.
 */
export function slugifyLabel(s: string, length = SLUGIFY_DEFAULT_LENGTH): string {
  const slug = s
    .toLowerCase()
    .replace(/[^a-z0-9]/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug.slice(0, length).replace(/-+$/, '');
}

function slugifyArgs(args: readonly GoValue[]): string {
  if (args.length < 1 || args.length > 2) {
    throw new FunctionError(`want 1 or 2 arguments ([<len>] <string>), got ${args.length}`);
  }
  const text = args[args.length - 1];
  if (typeof text !== 'string') throw new FunctionError(`the string to slugify must be a string, got ${text == null ? 'nil' : goTypeName(text)}`);
  if (args.length === 1) return slugifyLabel(text);
  const length = args[0];
  if (typeof length !== 'number') throw new FunctionError(`the length must be an integer, got ${length == null ? 'nil' : goTypeName(length)}`);
  if (length < 1) throw new FunctionError(`the length must be at least 1, got ${length}`);
  return slugifyLabel(text, length);
}

/** GitLab's functions by name. */
export const GITLAB_FUNCTIONS: ReadonlyMap<string, TemplateFunction> = new Map<string, TemplateFunction>([
  ['lower', { params: ['string'], call: ([s]) => (s as string).toLowerCase() }],
  ['substr', { params: ['int', 'int', 'string'], call: ([a, b, s]) => substr(a as number, b as number, s as string) }],
  ['replace', { params: ['string', 'string', 'string'], call: ([o, n, s]) => replaceAll(s as string, o as string, n as string) }],
  ['trimPrefix', { params: ['string', 'string'], call: ([p, s]) => ((s as string).startsWith(p as string) ? (s as string).slice((p as string).length) : s) }],
  ['trimSuffix', { params: ['string', 'string'], call: ([x, s]) => ((s as string).endsWith(x as string) && (x as string).length > 0 ? (s as string).slice(0, -(x as string).length) : s) }],
  // Variadic so that both `slugify s` and `slugify 20 s` reach the function, which checks the shapes.
  ['slugify', { params: [], variadic: 'any', call: (args) => slugifyArgs(args) }],
]);

/** Documentation of GitLab's functions (docs/gitlab-behaviour.md#template-variables-and-functions), for completion and hover. */
export interface GitLabFunctionDoc {
  readonly name: string;
  readonly signature: string;
  readonly description: string;
  /** The documentation's example and its result. */
  readonly example: { readonly template: string; readonly result: string };
}

/** The functions GitLab documents, with the documentation's examples (docs/gitlab-behaviour.md#template-variables-and-functions). */
export const GITLAB_FUNCTION_DOCS: readonly GitLabFunctionDoc[] = [
  { name: 'lower', signature: 'lower <string>', description: 'Converts to lower case.', example: { template: '{{ lower "HELLO" }}', result: 'hello' } },
  {
    name: 'substr',
    signature: 'substr <start> <end> <string>',
    description: 'Takes a substring (byte offsets, sprig semantics).',
    example: { template: '{{ substr 0 5 "hello world" }}', result: 'hello' },
  },
  {
    name: 'replace',
    signature: 'replace <old> <new> <string>',
    description: 'Replaces all occurrences of a substring.',
    example: { template: '{{ replace "_" "-" "foo_bar" }}', result: 'foo-bar' },
  },
  { name: 'trimPrefix', signature: 'trimPrefix <prefix> <string>', description: 'Removes the prefix.', example: { template: '{{ trimPrefix "-" "-hello" }}', result: 'hello' } },
  { name: 'trimSuffix', signature: 'trimSuffix <suffix> <string>', description: 'Removes the suffix.', example: { template: '{{ trimSuffix "-" "hello-" }}', result: 'hello' } },
  {
    name: 'slugify',
    signature: 'slugify [<len>] <string>',
    description: 'Makes an RFC 1123 label; cut to 63 characters unless a length is given.',
    example: { template: '{{ slugify "hello WORLD" }}', result: 'hello-world' },
  },
];

/** Names of GitLab's functions. */
export const GITLAB_FUNCTION_NAMES: readonly string[] = GITLAB_FUNCTION_DOCS.map((d) => d.name);

/** Names of Go's builtin functions available in every template. */
export const GO_BUILTIN_NAMES: readonly string[] = [...GO_BUILTINS.keys()];

/** Every function a GitLab environment template can call: Go's builtins plus GitLab's. */
export const TEMPLATE_FUNCTIONS: ReadonlyMap<string, TemplateFunction> = new Map([...GO_BUILTINS, ...GITLAB_FUNCTIONS]);
