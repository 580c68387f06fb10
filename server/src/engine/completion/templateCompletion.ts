import type { Document } from 'yaml';
import { schemaAtPath } from '../config/schemaLookup';
import { environmentTemplateSchema } from '../template/diagnostics/templateSchema';
import { GITLAB_FUNCTION_DOCS, GO_BUILTIN_NAMES, TEMPLATE_VARIABLES } from '../template/templateVariables';
import type { TextIndex } from '../text/textIndex';
import { keyCandidates, valueCandidates } from './schemaCompletion';
import { sortKey, type CompletionCandidate } from './types';
import { completionContextAt } from './yamlContext';

/** Go text/template actions (control structures), offered with the functions. */
const KEYWORDS: readonly (readonly [name: string, doc: string])[] = [
  ['if', '`{{ if pipeline }}…{{ end }}`: renders the body when the value is not empty (false, 0, nil, empty string).'],
  ['else', 'The alternative branch of `if`, `with` or `range`.'],
  ['end', 'Ends `if`, `with`, `range`, `define` or `block`.'],
  ['with', '`{{ with pipeline }}…{{ end }}`: renders the body with dot set to the value, when it is not empty.'],
  ['range', '`{{ range pipeline }}…{{ end }}`: renders the body for each element.'],
];

/** Short documentation of Go's builtin functions. */
const GO_BUILTIN_DOCS: Readonly<Record<string, string>> = {
  and: 'Returns the first empty argument or the last argument.',
  or: 'Returns the first non-empty argument or the last argument.',
  not: 'Boolean negation of its single argument.',
  eq: 'arg1 == arg2 (or any of the following arguments).',
  ne: 'arg1 != arg2.',
  lt: 'arg1 < arg2.',
  le: 'arg1 <= arg2.',
  gt: 'arg1 > arg2.',
  ge: 'arg1 >= arg2.',
  len: 'Length of its argument.',
  index: 'Indexes a map, slice or array.',
  slice: 'Slices a string, slice or array.',
  print: "Go's fmt.Sprint.",
  printf: "Go's fmt.Sprintf.",
  println: "Go's fmt.Sprintln.",
  html: 'HTML-escapes its arguments.',
  js: 'JavaScript-escapes its arguments.',
  urlquery: 'URL-query-escapes its arguments.',
  call: 'Calls a function value.',
};

/** How far back an open `{{` is looked for: actions are short, and the search must not grow with the file. */
const ACTION_WINDOW = 4096;

/**
 * Completion in an environment template: inside `{{ … }}` the template variables after `.` (and
 * the fields after `.project.` and the like), GitLab's functions, Go's builtins and actions
 * (docs/gitlab-behaviour.md#template-variables-and-functions); outside, the template's YAML keys and values from its schema (docs/gitlab-behaviour.md#environment-template-file, docs/gitlab-behaviour.md#template-object-kinds).
 */
export function completeEnvironmentTemplate(textOfDocument: string, index: TextIndex, doc: Document.Parsed | null, offset: number): CompletionCandidate[] {
  const open = openAction(textOfDocument, offset);
  if (open !== null) return actionCandidates(textOfDocument.slice(open, offset), offset, textOfDocument);
  const context = completionContextAt(textOfDocument, index, doc, offset);
  if (!context) return [];
  const schema = schemaAtPath(context.path, environmentTemplateSchema);
  if (!schema) return [];
  if (context.kind === 'key') {
    if (context.newItem && !schema.properties) return valueCandidates(schema, context);
    return keyCandidates(schema, context, 'proposal');
  }
  return valueCandidates(schema, context);
}

/** The offset just after the `{{` (and its `-` trim marker) of the action the cursor is in, or null. */
function openAction(text: string, offset: number): number | null {
  const from = Math.max(0, offset - ACTION_WINDOW);
  const window = text.slice(from, offset);
  const open = window.lastIndexOf('{{');
  if (open === -1 || window.lastIndexOf('}}') > open) return null;
  const start = from + open + 2;
  return text[start] === '-' && /\s/.test(text[start + 1] ?? '') ? start + 1 : start;
}

function actionCandidates(action: string, offset: number, document: string): CompletionCandidate[] {
  if ((action.match(/"/g)?.length ?? 0) % 2 === 1 || (action.match(/`/g)?.length ?? 0) % 2 === 1) return []; // inside a string literal
  const wordAfter = /^\w*/.exec(document.slice(offset))![0].length;
  const field = /(?:^|[\s(|])\.([A-Za-z_]\w*)\.(\w*)$/.exec(action);
  if (field) {
    const [, category, partial] = field;
    const replace = [offset - partial!.length, offset + wordAfter] as const;
    return TEMPLATE_VARIABLES.filter((v) => v.path.startsWith(`.${category}.`)).map((v, i) => ({
      label: v.path.slice(category!.length + 2),
      kind: 'field' as const,
      insertText: v.path.slice(category!.length + 2),
      snippet: false,
      replace,
      sortText: sortKey(0, i),
      detail: `${v.type} · ${v.path}`,
      documentation: v.description,
    }));
  }
  const dot = /(?:^|[\s(|])\.(\w*)$/.exec(action);
  if (dot) {
    const replace = [offset - dot[1]!.length, offset + wordAfter] as const;
    return TEMPLATE_VARIABLES.map((v, i) => ({
      label: v.path,
      kind: 'variable' as const,
      insertText: v.path.slice(1),
      snippet: false,
      replace,
      sortText: sortKey(0, i),
      filterText: v.path.slice(1),
      detail: v.type,
      documentation: `${v.description} (https://docs.gitlab.com/user/clusters/agent/managed_kubernetes_resources/)`,
    }));
  }
  const word = /(?:^|[\s(|])([A-Za-z]\w*)?$/.exec(action);
  if (!word) return [];
  const replace = [offset - (word[1]?.length ?? 0), offset + wordAfter] as const;
  const out: CompletionCandidate[] = GITLAB_FUNCTION_DOCS.map((f, i) => ({
    label: f.name,
    kind: 'function' as const,
    insertText: f.name,
    snippet: false,
    replace,
    sortText: sortKey(0, i),
    detail: f.signature,
    documentation: `${f.description}\n\n\`${f.example.template}\` → \`${f.example.result}\`\n\nGitLab template function (https://docs.gitlab.com/user/clusters/agent/managed_kubernetes_resources/).`,
  }));
  for (const [i, [name, doc]] of KEYWORDS.entries()) {
    out.push({ label: name, kind: 'keyword', insertText: name, snippet: false, replace, sortText: sortKey(1, i), documentation: doc });
  }
  for (const [i, name] of GO_BUILTIN_NAMES.entries()) {
    out.push({ label: name, kind: 'function', insertText: name, snippet: false, replace, sortText: sortKey(2, i), detail: 'Go text/template builtin', documentation: GO_BUILTIN_DOCS[name] ?? 'Go text/template builtin.' });
  }
  return out;
}
