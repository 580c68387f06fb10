import type { CancellationToken, Connection, ExecuteCommandParams, WorkDoneProgressReporter } from 'vscode-languageserver';
import { OperationCancellation } from './cancellation';

/** What a long cluster operation gets: where to report, and when to stop. */
export interface OperationContext {
  readonly signal: AbortSignal;
  /** Reports a step to the editor's progress UI (`$/progress` `report`). */
  report(message: string, percentage?: number): void;
}

/**
 * Runs `work` under `$/progress` and cancellation. Progress goes to the client's `workDoneToken`
 * when the request carries one (the VS Code client does, and shows its own cancellable
 * notification); otherwise the server creates a cancellable progress itself
 * (`window/workDoneProgress/create`) so any LSP editor shows it with a Cancel button. Both the
 * request's `$/cancelRequest` and that Cancel button abort `work` through one AbortSignal.
 */
export async function runOperation<T>(
  connection: Connection,
  params: ExecuteCommandParams,
  token: CancellationToken,
  title: string,
  work: (context: OperationContext) => Promise<T>,
): Promise<T> {
  const cancellation = new OperationCancellation(token);
  let reporter: WorkDoneProgressReporter;
  if (params.workDoneToken !== undefined) {
    reporter = connection.window.attachWorkDoneProgress(params.workDoneToken);
  } else {
    const created = await connection.window.createWorkDoneProgress();
    cancellation.follow(created.token);
    reporter = created;
  }
  reporter.begin(title, 0, undefined, true);
  let last = '';
  const context: OperationContext = {
    signal: cancellation.signal,
    report(message, percentage) {
      // Report only changes: engines may call with the same step many times while waiting.
      const key = `${message}\u0000${percentage ?? ''}`;
      if (key === last) return;
      last = key;
      if (percentage === undefined) reporter.report(message);
      else reporter.report(Math.max(0, Math.min(100, Math.round(percentage))), message);
    },
  };
  try {
    return await work(context);
  } finally {
    reporter.done();
    cancellation.dispose();
  }
}
