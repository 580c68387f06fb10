import type { CancellationToken, Disposable } from 'vscode-languageserver';

/**
 * One AbortSignal for everything that may cancel an operation: the request's own token
 * (`$/cancelRequest`) and the progress's Cancel button (`window/workDoneProgress/cancel`). The
 * cluster engine only knows AbortSignal; LSP types stop here.
 */
export class OperationCancellation implements Disposable {
  private readonly controller = new AbortController();
  private readonly listeners: Disposable[] = [];

  constructor(...tokens: readonly (CancellationToken | undefined)[]) {
    for (const token of tokens) this.follow(token);
  }

  /** Adds a token (e.g. the progress's, which exists only once the progress is created). */
  follow(token: CancellationToken | undefined): void {
    if (!token) return;
    if (token.isCancellationRequested) this.abort();
    else this.listeners.push(token.onCancellationRequested(() => this.abort()));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private abort(): void {
    if (!this.controller.signal.aborted) this.controller.abort(new Error('cancelled by the user'));
  }

  dispose(): void {
    for (const l of this.listeners.splice(0)) l.dispose();
  }
}
