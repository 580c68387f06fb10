import * as vscode from 'vscode';
import type { ApplyPlanView, PlannedObjectView } from '../../../server/src/protocol';

export const PLAN_SCHEME = 'gitlab-agent-plan';

/**
 * Read-only virtual documents for the diff editor: the live objects on one side, what the
 * server-side dry-run says they would become on the other. Objects come in the same order on both
 * sides, one YAML document each, so the diff lines up object by object.
 */
export class PlanDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, this);
  // A plan's texts live as long as their diff editor: what the user looked at stays readable.
  private readonly closing = vscode.workspace.onDidCloseTextDocument((document) => {
    if (document.uri.scheme === PLAN_SCHEME) this.texts.delete(document.uri.toString());
  });

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '# This plan is no longer available: run the command again.\n';
  }

  /** Opens the diff editor (live ↔ proposed) for a plan. */
  async showDiff(plan: ApplyPlanView): Promise<void> {
    const live = vscode.Uri.from({ scheme: PLAN_SCHEME, path: `/${plan.planId}/live.yaml` });
    const proposed = vscode.Uri.from({ scheme: PLAN_SCHEME, path: `/${plan.planId}/proposed.yaml` });
    this.texts.set(live.toString(), planSide(plan.objects, 'live'));
    this.texts.set(proposed.toString(), planSide(plan.objects, 'proposed'));
    await vscode.commands.executeCommand('vscode.diff', live, proposed, `${plan.title}: live ↔ proposed`, { preview: true });
  }

  /** Closes the plan's diff editor (after applying it shows a state that is gone). */
  async closeDiff(plan: Pick<ApplyPlanView, 'planId'>): Promise<void> {
    const prefix = `/${plan.planId}/`;
    const tabs = vscode.window.tabGroups.all.flatMap((group) =>
      group.tabs.filter((tab) => tab.input instanceof vscode.TabInputTextDiff && tab.input.modified.scheme === PLAN_SCHEME && tab.input.modified.path.startsWith(prefix)),
    );
    if (tabs.length) await vscode.window.tabGroups.close(tabs);
  }

  dispose(): void {
    this.registration.dispose();
    this.closing.dispose();
    this.texts.clear();
  }
}

function planSide(objects: readonly PlannedObjectView[], side: 'live' | 'proposed'): string {
  return objects
    .map((o) => {
      const body = side === 'live' ? o.live : o.proposed;
      const header = `# ${o.id} (${o.action})`;
      const missing = side === 'live' ? '# not on the cluster yet' : '# removed: no longer rendered by the template';
      return `---\n${header}\n${body.trim() ? body.trimEnd() : missing}\n`;
    })
    .join('');
}
