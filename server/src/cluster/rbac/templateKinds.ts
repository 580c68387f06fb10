/**
 * The kinds an environment template creates, read from its text without rendering it (a preview
 * needs no ids): each object's `apiVersion` and `kind` written literally, side by side at the same
 * indentation. Kinds written with template actions (`{{ … }}`) are skipped.
 */
import type { TemplateResource } from './checks';

const FIELD = /^(\s*)(?:-\s+)?(apiVersion|kind):\s*["']?([^"'\s#]+)["']?\s*(?:#.*)?$/;

/** The literal apiVersion/kind pairs of a template's objects, each once, in order. */
export function templateKinds(text: string): TemplateResource[] {
  const found = new Map<string, TemplateResource>();
  let pending: { indent: number; field: string; value: string; line: number } | undefined;
  text.split(/\r?\n/).forEach((line, index) => {
    const m = FIELD.exec(line);
    if (!m) return;
    // `- apiVersion:` starts an item two columns before its siblings.
    const indent = m[1].length + (line.trimStart().startsWith('-') ? 2 : 0);
    const [field, value] = [m[2], m[3]];
    if (pending && pending.field !== field && pending.indent === indent && index - pending.line <= 3 && !value.includes('{{') && !pending.value.includes('{{')) {
      const apiVersion = field === 'kind' ? pending.value : value;
      const kind = field === 'kind' ? value : pending.value;
      found.set(`${apiVersion}/${kind}`, { apiVersion, kind });
      pending = undefined;
      return;
    }
    pending = { indent, field, value, line: index };
  });
  return [...found.values()];
}
