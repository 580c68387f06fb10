/**
 * A small unified diff (longest common subsequence of lines) for the CLI's plan output. Manifests
 * are short, so the quadratic table is cheap; above a size limit the whole text is shown replaced.
 */

/** One line of an edit script. */
type Edit = { readonly op: ' ' | '-' | '+'; readonly line: string };

const MAX_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function editScript(a: string[], b: string[]): Edit[] {
  if (a.length * b.length > MAX_CELLS) return [...a.map((line) => ({ op: '-' as const, line })), ...b.map((line) => ({ op: '+' as const, line }))];
  // lcs[i][j] = LCS length of a[i..] and b[j..].
  const lcs = Array.from({ length: a.length + 1 }, () => new Uint32Array(b.length + 1));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      edits.push({ op: ' ', line: a[i] });
      i++;
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Removals before additions, as diff(1) prints them.
      edits.push({ op: '-', line: a[i++] });
    } else {
      edits.push({ op: '+', line: b[j++] });
    }
  }
  return edits;
}

function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

/**
 * The unified diff of two texts with `context` lines around each change; '' when they are equal.
 * Labels go on the `---`/`+++` lines.
 */
export function unifiedDiff(oldText: string, newText: string, labels: { old: string; new: string }, context = 3): string {
  const edits = editScript(splitLines(oldText), splitLines(newText));
  if (edits.every((e) => e.op === ' ')) return '';
  const out = [`--- ${labels.old}`, `+++ ${labels.new}`];
  const changed = edits.map((e, k) => (e.op !== ' ' ? k : -1)).filter((k) => k >= 0);
  let k = 0;
  while (k < changed.length) {
    const start = Math.max(0, changed[k] - context);
    let end = Math.min(edits.length, changed[k] + context + 1);
    while (k + 1 < changed.length && changed[k + 1] - context <= end) end = Math.min(edits.length, changed[++k] + context + 1);
    k++;
    let oldLine = 1;
    let newLine = 1;
    for (let e = 0; e < start; e++) {
      if (edits[e].op !== '+') oldLine++;
      if (edits[e].op !== '-') newLine++;
    }
    const hunk = edits.slice(start, end);
    const oldCount = hunk.filter((e) => e.op !== '+').length;
    const newCount = hunk.filter((e) => e.op !== '-').length;
    out.push(`@@ -${range(oldLine, oldCount)} +${range(newLine, newCount)} @@`, ...hunk.map((e) => `${e.op}${e.line}`));
  }
  return out.join('\n') + '\n';
}
