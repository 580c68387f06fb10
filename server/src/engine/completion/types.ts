/** What a completion offers, in editor-neutral terms (the LSP adapter maps kinds and offsets). */
export type CandidateKind = 'key' | 'skeleton' | 'value' | 'variable' | 'operator' | 'function' | 'keyword' | 'field' | 'id';

/** One completion candidate. Offsets are document offsets; `replace` is what accepting it replaces. */
export interface CompletionCandidate {
  readonly label: string;
  readonly kind: CandidateKind;
  /** Inserted text; in snippet syntax (`${1:placeholder}`, `$0`) when `snippet` is true. */
  readonly insertText: string;
  readonly snippet: boolean;
  readonly replace: readonly [number, number];
  /** Lower sorts first; candidates of one request share one scheme. */
  readonly sortText: string;
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  readonly deprecated?: boolean;
  /** Text the editor filters on when it differs from the label (e.g. `$CI_` for `CI_COMMIT_BRANCH`). */
  readonly filterText?: string;
  readonly preselect?: boolean;
  /** Accepting it leaves the cursor where keys go next: the editor should suggest again. */
  readonly suggestAgain?: boolean;
}

/** A CI/CD variable the user defined in one of their scenarios (settings), offered beside the predefined ones. */
export interface ScenarioVariableName {
  readonly name: string;
  /** Names of the scenarios that set it. */
  readonly scenarios: readonly string[];
}

/** Project and group ids already used somewhere in the workspace, for `id:` values. */
export interface KnownIds {
  readonly projects: ReadonlyMap<string, readonly string[]>;
  readonly groups: ReadonlyMap<string, readonly string[]>;
}

/** Sort keys that keep groups in order: `rank` first, then the position inside the group. */
export function sortKey(rank: number, position: number): string {
  return `${rank}${String(position).padStart(4, '0')}`;
}

/** Escapes text for a snippet: `$`, `}` and `\` are special there. */
export function snippetText(text: string): string {
  return text.replace(/[$}\\]/g, '\\$&');
}
