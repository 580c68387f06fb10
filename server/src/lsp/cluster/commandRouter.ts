import { ExecuteCommandRequest, type CancellationToken, type Connection, type ExecuteCommandParams } from 'vscode-languageserver';
import { describeOutcome, type ClusterFailure } from '../../cluster/kube/outcome';
import { EDITOR_ADVICE } from '../../cluster/kube/advice';
import type { ClusterCommandId, ClusterCommandResult, ClusterCommandValue } from '../../protocol/cluster';
import { UNTRUSTED_MESSAGE, type WorkspaceTrust } from './trust';

/** A command's request as a handler sees it. */
export interface CommandCall {
  readonly params: ExecuteCommandParams;
  readonly token: CancellationToken;
}

/** A handler reads its argument itself (it comes from the client: checked, never trusted) and answers with its protocol result. */
export type CommandHandler<C extends ClusterCommandId = ClusterCommandId> = (argument: unknown, call: CommandCall) => Promise<ClusterCommandResult<ClusterCommandValue<C>>>;

/**
 * Thrown by argument readers: the client sent something that is not the command's argument.
 * Recognised by name, not `instanceof`: the handlers live in their own bundle
 * (dist/clusterCommands.js), which has its own copy of this class.
 */
export class InvalidArguments extends Error {
  override readonly name = 'InvalidArguments';
}

/**
 * `workspace/executeCommand` for the cluster commands: one handler per command id, each taking one
 * argument object. Every call is refused unless the workspace is trusted; bad arguments and
 * unexpected errors become failures with a message, never a crashed request.
 */
export class ClusterCommandRouter {
  private readonly handlers = new Map<string, CommandHandler>();

  constructor(private readonly trust: WorkspaceTrust) {}

  register<C extends ClusterCommandId>(id: C, handler: CommandHandler<C>): void {
    this.handlers.set(id, handler);
  }

  /**
   * Placeholders for `ids` whose real handlers `load` registers (once, on the first call of any of
   * them). Refused calls (untrusted, unknown id) never trigger the load.
   */
  registerLazily(ids: readonly ClusterCommandId[], load: () => Promise<void>): void {
    let loading: Promise<void> | undefined;
    for (const id of ids) {
      const placeholder: CommandHandler = async (argument, call) => {
        loading ??= load();
        await loading;
        const handler = this.handlers.get(id);
        if (!handler || handler === placeholder) return { ok: false, kind: 'failed', message: `${id} has no handler.` };
        return handler(argument, call);
      };
      this.handlers.set(id, placeholder);
    }
  }

  /** The ids for `executeCommandProvider.commands`. */
  get commandIds(): string[] {
    return [...this.handlers.keys()];
  }

  listen(connection: Connection): void {
    // Not connection.onExecuteCommand: it strips `workDoneToken` from the params (attachWorkDone),
    // and runOperation needs to know whether the client brought one or the server must create one.
    connection.onRequest(ExecuteCommandRequest.type, (params, token) => this.execute(params, token));
  }

  async execute(params: ExecuteCommandParams, token: CancellationToken): Promise<ClusterCommandResult<unknown>> {
    const handler = this.handlers.get(params.command);
    if (!handler) return { ok: false, kind: 'invalidArguments', message: `Unknown command ${params.command}.` };
    if (!this.trust.isTrusted) return { ok: false, kind: 'untrusted', message: UNTRUSTED_MESSAGE };
    try {
      return await handler(params.arguments?.[0], { params, token });
    } catch (err) {
      if (err instanceof Error && err.name === 'InvalidArguments') return { ok: false, kind: 'invalidArguments', message: `${params.command}: ${err.message}` };
      return { ok: false, kind: 'failed', message: `${params.command} failed unexpectedly: ${err instanceof Error ? err.message : String(err)}` };
    }
  }
}

/** A cluster engine failure as a command result, with the engine's user-facing sentence. */
export function fromFailure(failure: ClusterFailure): ClusterCommandResult<never> {
  return { ok: false, kind: failure.type, message: describeOutcome(failure, EDITOR_ADVICE) };
}
