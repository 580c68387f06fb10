/** The value below which `p` percent of the samples fall (nearest rank). */
export function percentile(samples: readonly number[], p: number): number {
  if (!samples.length) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[
    Math.min(
      sorted.length - 1,
      Math.max(0, Math.ceil((p / 100) * sorted.length) - 1),
    )
  ];
}

export function median(samples: readonly number[]): number {
  return percentile(samples, 50);
}

const WIDTHS = [52, 14, 22, 10];

/** One line of a side-by-side table: the first column left-aligned, the figures right-aligned. */
export function formatRow(cells: readonly string[]): string {
  return cells
    .map((cell, i) =>
      i === 0 ? cell.padEnd(WIDTHS[i]) : cell.padStart(WIDTHS[i] ?? 10),
    )
    .join(" ");
}
