/**
 * From rendered template objects to what will be applied: each object checked (a Kubernetes object,
 * a supported kind (docs/gitlab-behaviour.md#template-object-kinds), namespaced kinds with a namespace, no duplicates), then labelled and
 * annotated as GitLab does (docs/gitlab-behaviour.md#managed-object-labels-and-annotation) and marked with its owning inventory (docs/gitlab-behaviour.md#inventories). Pure.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { dns1123LabelProblems, isRecord, type EnvironmentTemplateData } from '../../engine/api';
import { OWNING_INVENTORY_ANNOTATION } from '../inventory/configMap';
import { formatRef, refFromManifest, refKey, type ObjectRef } from '../kube/objectRef';
import { gitlabAnnotations, gitlabLabels } from './gitlabMetadata';
import { supportedKind, supportedKindsText, TIERS, type Tier } from '../objects/supportedKinds';

/** An object ready to apply. */
export interface DesiredObject {
  readonly ref: ObjectRef;
  readonly tier: Tier;
  /** The manifest with GitLab's labels/annotation and the owning-inventory annotation. */
  readonly manifest: KubernetesObject;
}

/** Why a rendered object cannot be applied; `index` is its position in `objects`. */
export interface ObjectProblem {
  readonly index: number;
  readonly ref?: ObjectRef;
  readonly message: string;
}

/** Outcome of {@link desiredObjects}. */
export interface DesiredObjects {
  /** Sorted by tier, then in template order. */
  readonly objects: readonly DesiredObject[];
  readonly problems: readonly ObjectProblem[];
}

/** What goes on every object. */
export interface ManagedMetadata {
  readonly data: EnvironmentTemplateData;
  readonly templateName: string;
  readonly inventoryId: string;
}

/** `label "a" is a number` for every non-string value of a labels/annotations mapping. */
function nonStringEntries(value: unknown, what: string): string[] {
  if (value === undefined || value === null) return [];
  if (!isRecord(value)) return [`metadata.${what}s must be a mapping`];
  return Object.entries(value)
    .filter(([, v]) => typeof v !== 'string')
    .map(([k, v]) => `${what} "${k}" is ${v === null ? 'null' : Array.isArray(v) ? 'a list' : `a ${typeof v}`}`);
}

function stringMap(value: unknown): Record<string, string> {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const RBAC_GROUP = 'rbac.authorization.k8s.io';

/**
 * Why a name cannot be used, checked before the API server sees it so the message says what to fix
 * (docs/gitlab-behaviour.md#names): namespaces are DNS-1123 labels, other objects DNS-1123 subdomains; RBAC names are
 * freer, but client-node 1.x lower-cases request paths, so capitals cannot be addressed.
 */
function nameProblem(ref: ObjectRef): string | undefined {
  for (const ns of [ref.kind === 'Namespace' && ref.group === '' ? ref.name : undefined, ref.namespace || undefined]) {
    if (ns === undefined) continue;
    const problems = dns1123LabelProblems(ns);
    if (problems.length > 0) return `namespace name '${ns}' is not a valid DNS-1123 label: it ${problems.map((p) => p.message).join(', ')}`;
  }
  if (ref.group === RBAC_GROUP) {
    if (/[/%]/.test(ref.name) || ref.name === '.' || ref.name === '..') return `name '${ref.name}' may not contain '/' or '%' or be '.' or '..'`;
    if (ref.name !== ref.name.toLowerCase()) return `name '${ref.name}' has capital letters, which this tool cannot address (its Kubernetes client lower-cases request paths); use a lower-case name`;
    return undefined;
  }
  if (ref.kind !== 'Namespace' && (ref.name.length > 253 || !DNS1123_SUBDOMAIN.test(ref.name))) {
    return `name '${ref.name}' is not a valid DNS-1123 subdomain: lower case alphanumerics, '-' and '.', starting and ending with an alphanumeric, at most 253 characters`;
  }
  return undefined;
}

/** Checks and decorates the rendered objects. */
export function desiredObjects(rendered: readonly unknown[], meta: ManagedMetadata): DesiredObjects {
  const problems: ObjectProblem[] = [];
  const seen = new Map<string, number>();
  const objects: DesiredObject[] = [];
  rendered.forEach((item, index) => {
    const at = `objects[${index}]`;
    if (!isRecord(item)) {
      problems.push({ index, message: `${at} is not a Kubernetes object (a mapping)` });
      return;
    }
    const manifest = item as KubernetesObject;
    const ref = refFromManifest(manifest);
    if (!ref) {
      problems.push({ index, message: `${at} needs apiVersion, kind and metadata.name` });
      return;
    }
    const supported = supportedKind(ref.group, ref.kind);
    if (!supported) {
      problems.push({ index, ref, message: `${formatRef(ref)}: kind ${ref.kind}${ref.group ? ` (${ref.group})` : ''} is not supported in environment templates (supported: ${supportedKindsText()})` });
      return;
    }
    if (supported.namespaced && ref.namespace === '') {
      problems.push({ index, ref, message: `${formatRef(ref)} has no metadata.namespace; set it explicitly (objects are never put in a default namespace)` });
      return;
    }
    if (!supported.namespaced && ref.namespace !== '') {
      problems.push({ index, ref, message: `${formatRef(ref)} is cluster-scoped and must not set metadata.namespace` });
      return;
    }
    const badName = nameProblem(ref);
    if (badName) {
      problems.push({ index, ref, message: `${formatRef(ref)}: ${badName}` });
      return;
    }
    const key = refKey(ref);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({ index, ref, message: `${formatRef(ref)} appears twice (objects[${earlier}] and ${at})` });
      return;
    }
    const metadata = isRecord(manifest.metadata) ? manifest.metadata : {};
    const notText = nonStringEntries(metadata.labels, 'label').concat(nonStringEntries(metadata.annotations, 'annotation'));
    if (notText.length > 0) {
      problems.push({ index, ref, message: `${formatRef(ref)}: ${notText.join('; ')} (Kubernetes takes only strings; quote the value in the template)` });
      return;
    }
    seen.set(key, index);
    objects.push({
      ref,
      tier: supported.tier,
      manifest: {
        ...manifest,
        metadata: {
          ...metadata,
          labels: { ...stringMap(metadata.labels), ...gitlabLabels(meta.data) },
          annotations: { ...stringMap(metadata.annotations), ...gitlabAnnotations(meta.data, meta.templateName), [OWNING_INVENTORY_ANNOTATION]: meta.inventoryId },
        },
      },
    });
  });
  const order = (o: DesiredObject): number => TIERS.indexOf(o.tier);
  return { objects: objects.map((o, i) => ({ o, i })).sort((a, b) => order(a.o) - order(b.o) || a.i - b.i).map((x) => x.o), problems };
}
