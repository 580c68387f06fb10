/**
 * From rendered template objects to what will be applied: each object checked (a Kubernetes object,
 * a supported kind (spec §2.5), namespaced kinds with a namespace, no duplicates), then labelled and
 * annotated as GitLab does (spec §2.6) and marked with its owning inventory (spec §5.3). Pure.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import { isRecord } from '../../engine/data';
import type { EnvironmentTemplateData } from '../../engine/template/templateVariables';
import { OWNING_INVENTORY_ANNOTATION } from '../inventory/configMap';
import { formatRef, refFromManifest, refKey, type ObjectRef } from '../kube/objectRef';
import { gitlabAnnotations, gitlabLabels } from './gitlabMetadata';
import { supportedKind, supportedKindsText, TIERS, type Tier } from './supportedKinds';

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

function stringMap(value: unknown): Record<string, string> {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
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
      problems.push({ index, ref, message: `${formatRef(ref)}: kind ${ref.kind}${ref.group ? ` (${ref.group})` : ''} is not supported in environment templates (spec §2.5: ${supportedKindsText()})` });
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
    const key = refKey(ref);
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      problems.push({ index, ref, message: `${formatRef(ref)} appears twice (objects[${earlier}] and ${at})` });
      return;
    }
    seen.set(key, index);
    const metadata = isRecord(manifest.metadata) ? manifest.metadata : {};
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
