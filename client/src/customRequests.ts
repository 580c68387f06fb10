/**
 * The client's side of the custom requests and notifications: sent by method, typed by the one
 * declaration in the protocol module (CustomRequests, CustomNotifications), so a call whose params
 * or expected result drift from what the server answers does not compile.
 */
import type { LanguageClient } from 'vscode-languageclient/node';
import type { CustomNotifications, CustomRequests } from '../../server/src/protocol';

type Method = keyof CustomRequests;
/** The params argument, absent for a request that takes none. */
type ParamsArgument<M extends Method> = CustomRequests[M]['params'] extends void ? [] : [params: CustomRequests[M]['params']];

export function sendCustomRequest<M extends Method>(client: LanguageClient, method: M, ...params: ParamsArgument<M>): Promise<CustomRequests[M]['result']> {
  return params.length === 0 ? client.sendRequest(method) : client.sendRequest(method, params[0]);
}

export function sendCustomNotification<M extends keyof CustomNotifications>(client: LanguageClient, method: M, params: CustomNotifications[M]): Promise<void> {
  return client.sendNotification(method, params);
}
