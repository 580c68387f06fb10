import type { Connection, Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';

/**
 * The diagnostics last published for each document, as the user sees them: code lenses read them
 * to say that an entry with errors is invalid instead of claiming access. It records what goes out
 * through `connection.sendDiagnostics`, so no feature has to run the checks a second time.
 */
export class PublishedDiagnostics {
  private readonly byUri = new Map<string, PublishDiagnosticsParams>();

  constructor(connection: Connection) {
    const send = connection.sendDiagnostics.bind(connection);
    connection.sendDiagnostics = async (params: PublishDiagnosticsParams) => {
      const before = this.errorLines(this.byUri.get(params.uri));
      this.byUri.set(params.uri, params);
      await send(params);
      // Lenses were asked for before this version was checked: ask again when its errors differ.
      if (before !== this.errorLines(params)) void connection.sendRequest('workspace/codeLens/refresh').catch(() => undefined);
    };
  }

  private errorLines(params: PublishDiagnosticsParams | undefined): string {
    return (params?.diagnostics ?? [])
      .filter((d) => d.severity === 1)
      .map((d) => d.range.start.line)
      .join(',');
  }

  /** The errors published for `uri` at `version` (none when that version has not been checked yet). */
  errors(uri: string, version: number): Diagnostic[] {
    const published = this.byUri.get(uri);
    if (!published || published.version !== version) return [];
    return published.diagnostics.filter((d) => d.severity === 1);
  }
}
