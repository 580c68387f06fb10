/**
 * The server's side of the custom requests and notifications: handlers registered by method, typed
 * by the one declaration in protocol.ts (CustomRequests, CustomNotifications), so a handler whose
 * params or result drift from what the client sends does not compile.
 */
import type { CancellationToken, Connection } from 'vscode-languageserver';
import type { CustomNotifications, CustomRequests } from '../protocol';

export type CustomRequestMethod = keyof CustomRequests;

export function onCustomRequest<M extends CustomRequestMethod>(
  connection: Connection,
  method: M,
  handler: (params: CustomRequests[M]['params'], token: CancellationToken) => CustomRequests[M]['result'] | Promise<CustomRequests[M]['result']>,
): void {
  connection.onRequest(method, handler);
}

export function onCustomNotification<M extends keyof CustomNotifications>(connection: Connection, method: M, handler: (params: CustomNotifications[M]) => void): void {
  connection.onNotification(method, handler);
}
