/**
 * Template errors as Go's `text/template` words them, plus where they are in the template text.
 */

/**
 * Why rendering stopped: the template does not parse (`syntax`), failed while executing
 * (`execution`), or went past a bound of this tool (`limit`, see limits.ts: not a GitLab failure).
 */
export type TemplateErrorKind = 'syntax' | 'execution' | 'limit';

/** A failure thrown inside the parser or evaluator; converted to a {@link TemplateError} at the API edge. */
export class TemplateFailure extends Error {
  constructor(
    readonly kind: TemplateErrorKind,
    /** Go's full message, e.g. `template: default:3:15: executing "default" at <.a.b>: …`. */
    message: string,
    /** The cause alone, e.g. `function "x" not defined`. */
    readonly cause: string,
    /** Source span (UTF-16 offsets) the error is about. */
    readonly start: number,
    readonly end: number,
    /** Go's node text for execution errors (`<...>` in the message). */
    readonly context?: string,
  ) {
    super(message);
  }
}

const UTF8 = new TextEncoder();

/** 1-based line of `offset`, counted the way Go counts (newlines before it). */
export function goLine(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Go's `ErrorContext` column: the 0-based **byte** offset of `offset` within its line (Go strings are UTF-8).
 */
export function goByteColumn(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return UTF8.encode(text.slice(lineStart, offset)).length;
}
