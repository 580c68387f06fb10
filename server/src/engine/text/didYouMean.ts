/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transpositions, the commonest
 * typo), bounded: returns `limit + 1` as soon as the distance must exceed `limit`.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j], beforePrevious[j - 2] + 1);
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > limit) return limit + 1;
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * The candidate closest to `word` when it is a plausible misspelling: at most a third of the
 * word's length away (and at most 3 edits), ignoring case. Null when nothing is close.
 */
export function closestMatch(word: string, candidates: readonly string[]): string | null {
  const known = lookupsOf(candidates);
  const remembered = known.answers.get(word);
  if (remembered !== undefined) return remembered;
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  const lowerWord = word.toLowerCase();
  let best: string | null = null;
  let bestDistance = limit + 1;
  known.lowered.forEach((candidate, i) => {
    const d = editDistance(lowerWord, candidate, limit);
    if (d < bestDistance) {
      best = candidates[i]!;
      bestDistance = d;
    }
  });
  if (known.answers.size >= REMEMBERED_ANSWERS) known.answers.clear();
  known.answers.set(word, best);
  return best;
}

/**
 * Answers kept per list of candidates. The lists that are asked most are constants (the predefined
 * CI/CD variables, the template functions), and the same unknown name comes back in entry after
 * entry (a project's own `$DEPLOY_TARGET` in every rule): each is measured against the ~200
 * variable names once.
 */
const REMEMBERED_ANSWERS = 512;

interface CandidateLookups {
  readonly lowered: readonly string[];
  readonly answers: Map<string, string | null>;
}

const lookupsByCandidates = new WeakMap<readonly string[], CandidateLookups>();

function lookupsOf(candidates: readonly string[]): CandidateLookups {
  let known = lookupsByCandidates.get(candidates);
  if (!known) lookupsByCandidates.set(candidates, (known = { lowered: candidates.map((c) => c.toLowerCase()), answers: new Map() }));
  return known;
}
