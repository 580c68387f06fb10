/**
 * The unified diff of live vs proposed YAML for the plan output (CLI text and JSON, the editor's
 * output channel). The edit script comes from jsdiff (Myers' O(ND) algorithm), so a large manifest
 * with a few changes costs about its length, not length²; only the hunk headers are ours, written
 * as diff(1) writes them (`@@ -5 +5 @@` for one line).
 */
import { structuredPatch, type StructuredPatchHunk } from 'diff';

/**
 * Above this many removed plus added lines the search for the shortest edit script stops: jsdiff's
 * cost grows with the square of that number (a fraction of a second at this bound, seconds at a few
 * times it, far longer at ten times it; bench/diff.ts shows the bounded figures), and a diff that
 * large reads as "everything from the first to the last change was replaced" anyway, which is what
 * is shown then, under a note.
 */
export const MAX_EDIT_LINES = 2_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * One hunk that replaces everything between the common head and the common tail of the two texts:
 * a correct diff, though not the shortest, found in linear time.
 */
function replacedMiddle(oldText: string, newText: string, context: number): StructuredPatchHunk {
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const before = a.slice(Math.max(0, head - context), head).map((line) => ` ${line}`);
  const after = a.slice(a.length - tail, a.length - tail + context).map((line) => ` ${line}`);
  const removed = a.slice(head, a.length - tail).map((line) => `-${line}`);
  const added = b.slice(head, b.length - tail).map((line) => `+${line}`);
  const start = head - before.length + 1;
  return {
    oldStart: start,
    oldLines: before.length + removed.length + after.length,
    newStart: start,
    newLines: before.length + added.length + after.length,
    lines: before.concat(removed, added, after),
  };
}

/** A hunk range as diff(1) prints it: the count left out when it is 1, the line before when it is 0. */
function range(start: number, count: number): string {
  return count === 1 ? `${start}` : `${count === 0 ? start - 1 : start},${count}`;
}

/**
 * The unified diff of two texts with `context` lines around each change; '' when they are equal.
 * Labels go on the `---`/`+++` lines. When more than {@link MAX_EDIT_LINES} lines differ, the
 * diff is one hunk replacing everything from the first to the last changed line, after a note
 * line that says so.
 */
export function unifiedDiff(oldText: string, newText: string, labels: { old: string; new: string }, context = 3): string {
  if (oldText === newText) return '';
  const patch = structuredPatch(labels.old, labels.new, oldText, newText, undefined, undefined, { context, maxEditLength: MAX_EDIT_LINES });
  const hunks = patch ? patch.hunks : [replacedMiddle(oldText, newText, context)];
  if (hunks.length === 0) return '';
  const out = patch
    ? []
    : [`(more than ${MAX_EDIT_LINES.toLocaleString('en-US')} lines differ: shown as one block replaced from the first to the last changed line)`];
  out.push(`--- ${labels.old}`, `+++ ${labels.new}`);
  for (const hunk of hunks) {
    out.push(`@@ -${range(hunk.oldStart, hunk.oldLines)} +${range(hunk.newStart, hunk.newLines)} @@`);
    // A loop, not push(...lines): a hunk of 100,000 lines would overflow the call stack as arguments.
    for (const line of hunk.lines) out.push(line);
  }
  return out.join('\n') + '\n';
}
