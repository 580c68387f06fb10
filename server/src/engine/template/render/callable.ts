import type { GoValue } from './values';

/**
 * Go parameter types the evaluator converts arguments to, as `reflect` would:
 * - `string`, `int`: typed parameters (a GitLab function such as `substr(start, end int, s string)`);
 *   a value of another type is "wrong type for value", a missing value is "invalid value".
 * - `any`: `interface{}` (`print`, `printf`); a missing value arrives as nil.
 * - `value`: `reflect.Value` (`eq`, `len`, `index`…); a missing value arrives as it is (`undefined`).
 */
export type ParamType = 'string' | 'int' | 'any' | 'value';

/** A function callable from a template. */
export interface TemplateFunction {
  /** Fixed parameters. */
  readonly params: readonly ParamType[];
  /** Type of the `...` parameter, when the function is variadic. */
  readonly variadic?: ParamType;
  /**
   * Runs the function on converted arguments. Throw {@link FunctionError} for an error the Go function
   * would return (or a panic it would raise); the evaluator reports `error calling <name>: <message>`.
   */
  readonly call: (args: GoValue[]) => GoValue;
  /** True when the result is an element taken out of a container (`index`), i.e. typed `interface{}`. */
  readonly returnsInterface?: boolean;
}

/** An error returned by a template function. */
export class FunctionError extends Error {}

/** Go's runtime message for a panic inside a function, e.g. a slice out of range. */
export function runtimeError(message: string): FunctionError {
  return new FunctionError(`runtime error: ${message}`);
}
