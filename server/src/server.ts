/**
 * Language server entry point. `createConnection` picks the transport from the command line
 * (`--stdio`, `--node-ipc`, `--socket=`), so the same bundle serves VS Code (IPC), other editors and
 * the protocol tests (stdio). The server itself is lsp/languageServer.ts.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { createServer } from './lsp/languageServer';

const connection = createConnection(ProposedFeatures.all);
const server = createServer(connection);

// A bug in one handler must not take the server down for every open file.
process.on('uncaughtException', (err) => connection.console.error(`uncaught: ${err.stack ?? err.message}`));
process.on('unhandledRejection', (reason) => connection.console.error(`unhandled rejection: ${String(reason)}`));

server.listen();
