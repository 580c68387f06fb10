/**
 * agentk's termination tracker after docs/gitlab-behaviour.md#workspace-termination: `updateOrSet` replaces `set`, and an entry whose
 * progress did not change since the last cycle is marked reconciled, so it is not reported again.
 * "The end result of this is that we do not unnecessarily send information about the termination
 * progress of the workspace unless there is a change in the termination progress." (docs/gitlab-behaviour.md#workspace-termination)
 */
import type { TerminationProgress } from './actualState';

export interface TerminationReport {
  name: string;
  namespace: string;
  progress: TerminationProgress;
}

interface Entry extends TerminationReport {
  isReconciled: boolean;
}

export class TerminationTracker {
  private readonly entries = new Map<string, Entry>();

  /**
   * Records the progress of a workspace. By default the entry is not reconciled (it will be
   * reported); if the tracker already holds the same progress, it is reconciled (docs/gitlab-behaviour.md#workspace-termination).
   */
  updateOrSet(name: string, namespace: string, progress: TerminationProgress): void {
    const key = trackerKey(name, namespace);
    const existing = this.entries.get(key);
    const isReconciled = existing !== undefined && existing.progress === progress;
    this.entries.set(key, { name, namespace, progress, isReconciled });
  }

  /** Forgets a workspace (Rails persisted it as Terminated). */
  remove(name: string, namespace: string): void {
    this.entries.delete(trackerKey(name, namespace));
  }

  get(name: string, namespace: string): TerminationProgress | undefined {
    return this.entries.get(trackerKey(name, namespace))?.progress;
  }

  /** The entries agentk would send to Rails this cycle: those whose progress changed. */
  unreconciled(): TerminationReport[] {
    return [...this.entries.values()].filter((e) => !e.isReconciled).map(({ name, namespace, progress }) => ({ name, namespace, progress }));
  }
}

function trackerKey(name: string, namespace: string): string {
  return `${namespace}/${name}`;
}
