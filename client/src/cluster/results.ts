import * as vscode from 'vscode';
import type { ClusterCommandResult, ExecutionReport } from '../../../server/src/protocol';

/**
 * Shows a finished operation: a notification with the summary, and every line in the output
 * channel. Failures are errors with the server's message (what failed, on which object, what to do).
 */
export function showReport(output: vscode.OutputChannel, title: string, result: ClusterCommandResult<ExecutionReport>): void {
  output.appendLine(`[${new Date().toISOString()}] ${title}`);
  if (!result.ok) {
    output.appendLine(`  ${result.kind}: ${result.message}`);
    if (result.kind === 'cancelled') void vscode.window.showWarningMessage(`${title}: ${result.message}`);
    else void showError(output, `${title} failed: ${result.message}`);
    return;
  }
  const { summary, lines } = result.value;
  for (const line of lines) output.appendLine(`  ${line.ok ? '✓' : '✗'} ${line.object}: ${line.result}`);
  output.appendLine(`  ${summary}`);
  const failed = lines.filter((l) => !l.ok);
  if (failed.length > 0) {
    // One message: the first failure (each names its object, verb and identity); the rest are in the output.
    const more = failed.length > 1 ? ` (${failed.length - 1} more failure${failed.length === 2 ? '' : 's'} in the output)` : '';
    void showError(output, `${title}: ${failed[0].object}: ${failed[0].result}${more}`);
  } else {
    void vscode.window.showInformationMessage(`${title}: ${summary}`, 'Show Output').then((c) => c && output.show(true));
  }
}

/** An error notification with the log one click away. */
export async function showError(output: vscode.OutputChannel, message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, 'Show Output');
  if (choice) output.show(true);
}

/** A failed plan or listing: logged and shown; true when `result` failed. */
export function reportFailure<T>(output: vscode.OutputChannel, title: string, result: ClusterCommandResult<T>): result is Extract<ClusterCommandResult<T>, { ok: false }> {
  if (result.ok) return false;
  output.appendLine(`[${new Date().toISOString()}] ${title}: ${result.kind}: ${result.message}`);
  if (result.kind === 'cancelled') void vscode.window.showWarningMessage(`${title}: cancelled.`);
  else void showError(output, `${title}: ${result.message}`);
  return true;
}

/** The button of a modal that changes nothing; listed first so that it, not the destructive one, has the focus. */
export const KEEP = 'Keep';

/**
 * The buttons of a destructive modal: a safe one first (VS Code focuses the first button; its own
 * Cancel always comes last), then the destructive one. Only the destructive title proceeds.
 */
export function safeFirst(destructive: string): [string, string] {
  return [KEEP, destructive];
}

/**
 * The second, explicit confirmation before a namespace goes with objects this environment did not
 * create (kubectl-made, another tool's): the server refuses to delete them without it.
 */
export async function confirmAlsoDeleted(others: readonly string[], what: string): Promise<boolean> {
  const shown = others.slice(0, 30);
  const answer = await vscode.window.showWarningMessage(
    `${what} also deletes ${others.length} object${others.length === 1 ? '' : 's'} this environment did not create. Delete them too?`,
    { modal: true, detail: [...shown.map((o) => `  ${o}`), ...(others.length > shown.length ? [`  … and ${others.length - shown.length} more`] : []), '', 'Move what must stay to another namespace first, or cancel.'].join('\n') },
    ...safeFirst('Delete Them Too'),
  );
  return answer === 'Delete Them Too';
}
