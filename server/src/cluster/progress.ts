/**
 * How long-running cluster operations tell the outside world what they are doing. The LSP adapter
 * maps a sink to `$/progress`, the CLI to lines on stderr; the engine knows neither. Operations
 * report through reportStep to a ProgressSink (both in progressSteps.ts), which words every step the same way.
 */
import type { ProgressSink } from './progressSteps';

/** Options every cluster operation takes. */
export interface OperationOptions {
  /** Cancels the operation; it stops at the next request boundary and reports `cancelled`. */
  readonly signal?: AbortSignal;
  readonly progress?: ProgressSink;
  /** Upper bound of the whole operation (waits included), in milliseconds. */
  readonly timeoutMs?: number;
}

/** A sink that drops everything. */
export const SILENT_PROGRESS: ProgressSink = { report: () => undefined };
