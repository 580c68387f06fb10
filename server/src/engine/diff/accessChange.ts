import type { AccessOutcome } from '../access/simulate';
import type { ObjectSummary } from './templateObjects';

// One change the access diff reports, and what a job gets in each version.

export type ChangeKind = 'gained' | 'lost' | 'identity' | 'namespace' | 'objects' | 'via';
/** Most severe first: `critical` is access gained in a production situation. */
export type ChangeSeverity = 'critical' | 'high' | 'medium' | 'low';

/** What a job gets in one version. */
export interface AccessState {
  readonly authorized: boolean;
  readonly namespace: string | null;
  /** The Kubernetes user (and, for `impersonate`, its groups) the job's requests carry. */
  readonly identity: string | null;
  readonly accessAs: AccessOutcome['access_as'];
  /** `project acme/web`, `group acme`, `implicit`, `instance`; null when no entry was reached. */
  readonly via: string | null;
  readonly rule: number | null;
  /** What the managed environment creates for the job; null when GitLab prepares none. */
  readonly objects: ObjectSummary | null;
  /** Why the job gets no access; null when authorized. */
  readonly denial: string | null;
}

/** A line responsible for a change: 0-based, in the agent's config or template, of the old or new version. */
export interface ChangeLocation {
  /** `pipeline`: the job in `.gitlab-ci.yml`. */
  readonly file: 'config' | 'template' | 'pipeline';
  readonly version: 'before' | 'after';
  readonly line: number;
}

export interface AccessChange {
  /** The agent's key in the input. */
  readonly agent: string;
  /** The kubeconfig context GitLab names for the agent (in the new version). */
  readonly context: string;
  readonly project: string;
  /** The scenario's name; for a pipeline job, `<job> · <pipeline situation>`. */
  readonly scenario: string;
  /** The pipeline job, when the scenario is one. */
  readonly job?: string;
  /** The situation deploys to a production-tier environment or runs for a protected ref. */
  readonly production: boolean;
  /** The most important of `kinds`. */
  readonly kind: ChangeKind;
  /** Every way the outcome changed, most important first. */
  readonly kinds: readonly ChangeKind[];
  readonly severity: ChangeSeverity;
  readonly before: AccessState;
  readonly after: AccessState;
  /** The entry or rule that decides in the new version, or in the old one when the new has none; the template's first changed line for `objects`. */
  readonly lines: readonly ChangeLocation[];
}
