/**
 * Editor-neutral diagnostic shape used across the engine. Positions are 0-based lines and UTF-16
 * characters, the convention LSP uses, so adapters convert nothing.
 */
export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export type Severity = 'error' | 'warning' | 'information' | 'hint';

export interface EngineDiagnostic {
  readonly range: Range;
  readonly severity: Severity;
  /** Stable machine-readable code, e.g. `schema.unknownKey`. */
  readonly code: string;
  readonly message: string;
  /** `deprecated`: the editor strikes the text through (removed keys). */
  readonly tags?: readonly 'deprecated'[];
  /** Extra data for code actions (e.g. the suggested replacement). */
  readonly data?: Readonly<Record<string, unknown>>;
  /**
   * A finding the user silenced: `inSource` by a comment in the file, `external` by a setting or
   * flag. Kept so that a report recording suppressions (SARIF) can say so; everything that shows
   * problems leaves it out ({@link shownDiagnostics}).
   */
  readonly suppressed?: 'inSource' | 'external';
}

/** The problems to show: all but the ones the user silenced. */
export function shownDiagnostics<D extends EngineDiagnostic>(diagnostics: readonly D[]): D[] {
  return diagnostics.filter((d) => d.suppressed === undefined);
}

