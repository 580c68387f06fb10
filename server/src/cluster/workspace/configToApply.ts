/**
 * A workspace's `config_to_apply` (docs/gitlab-behaviour.md#workspace-reconciliation): the multi-document YAML Rails sends agentk, parsed into
 * objects and grouped by the inventory ConfigMap that owns each of them, as agentk's
 * `groupObjectsByInventory` does (docs/gitlab-behaviour.md#inventories).
 */
import { parseAllDocuments } from 'yaml';
import { isRecord } from '../../engine/api';
import { entryProblem } from '../guards';
import { splitApiVersion } from '../kube/objectRef';
import { INVENTORY_ID_LABEL, OWNING_INVENTORY_ANNOTATION } from './names';

/** One object of the YAML, as plain data, with where it starts in the text. */
export interface ManifestObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
}

export interface LocatedObject {
  object: ManifestObject;
  /** 1-based line of the document's first character. */
  line: number;
}

/** An inventory ConfigMap and the objects whose owning-inventory annotation names it. */
export interface InventoryGroup {
  inventory: ManifestObject;
  objects: ManifestObject[];
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Parses every document. Empty documents are skipped (Rails joins documents with `---`); a document
 * that is not a Kubernetes object is an error naming its line, so nothing is applied half-way.
 */
export function parseConfigToApply(text: string, source = 'config_to_apply'): Parsed<LocatedObject[]> {
  // YAML 1.1, as sigs.k8s.io/yaml (go-yaml v2) reads it in agentk.
  const docs = parseAllDocuments(text, { version: '1.1', prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [];
  const objects: LocatedObject[] = [];
  for (const doc of list) {
    const first = doc.errors[0];
    if (first) {
      const at = first.linePos?.[0];
      return { ok: false, error: `${source}${at ? `:${at.line}:${at.col}` : ''}: ${first.message.split('\n')[0]}` };
    }
    const value: unknown = doc.toJSON();
    if (value === null || value === undefined || doc.contents === null) continue;
    const line = lineOf(text, doc.contents.range?.[0] ?? doc.range[0]);
    const problem = objectProblem(value);
    if (problem) return { ok: false, error: `${source}:${line}: ${problem}` };
    objects.push({ object: value as ManifestObject, line });
  }
  return { ok: true, value: objects };
}

function objectProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'a document is not a mapping (expected a Kubernetes object)';
  if (typeof value.apiVersion !== 'string' || !value.apiVersion) return 'the object has no apiVersion';
  if (typeof value.kind !== 'string' || !value.kind) return 'the object has no kind';
  const metadata = value.metadata;
  if (!isRecord(metadata) || typeof metadata.name !== 'string' || !metadata.name) return `the ${value.kind} has no metadata.name`;
  if (metadata.namespace !== undefined && typeof metadata.namespace !== 'string') return `${value.kind} ${metadata.name}: metadata.namespace must be a string`;
  // A name that is no valid object name could change the request path into another object's.
  const invalid = entryProblem({ ...splitApiVersion(value.apiVersion as string), kind: value.kind, namespace: metadata.namespace ?? '', name: metadata.name });
  if (invalid) return `${value.kind} ${metadata.name}: ${invalid}`;
  for (const key of ['labels', 'annotations'] as const) {
    const map = metadata[key];
    if (map === undefined || map === null) continue;
    if (!isRecord(map) || Object.values(map).some((v) => typeof v !== 'string')) {
      return `${value.kind} ${metadata.name}: metadata.${key} must map strings to strings`;
    }
  }
  return undefined;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** cli-utils' `IsInventoryObject`: a non-empty inventory-id label (docs/gitlab-behaviour.md#inventories). */
export function isInventoryObject(object: ManifestObject): boolean {
  return Boolean(object.metadata.labels?.[INVENTORY_ID_LABEL]);
}

/** Display name of an object in messages: `Kind namespace/name`. */
export function describeObject(object: ManifestObject): string {
  const ns = object.metadata.namespace;
  return `${object.kind} ${ns ? `${ns}/` : ''}${object.metadata.name}`;
}

/**
 * Groups objects by owning inventory exactly as agentk (docs/gitlab-behaviour.md#inventories): inventories are keyed by their
 * ConfigMap name; no inventory at all → "no inventory found"; an object without the annotation →
 * "no owning inventory found". An annotation naming an inventory the payload lacks crashes agentk
 * (nil map entry); here it is an error naming the object and the inventory.
 */
export function groupByInventory(objects: readonly ManifestObject[]): Parsed<InventoryGroup[]> {
  const groups = new Map<string, InventoryGroup>();
  for (const object of objects) {
    if (isInventoryObject(object)) groups.set(object.metadata.name, { inventory: object, objects: [] });
  }
  if (groups.size === 0) return { ok: false, error: 'no inventory found' };
  for (const object of objects) {
    if (isInventoryObject(object)) continue;
    const owner = object.metadata.annotations?.[OWNING_INVENTORY_ANNOTATION];
    if (owner === undefined) return { ok: false, error: `no owning inventory found (${describeObject(object)} has no ${OWNING_INVENTORY_ANNOTATION} annotation)` };
    const group = groups.get(owner);
    if (!group) return { ok: false, error: `${describeObject(object)}: its owning inventory "${owner}" is not in the config` };
    group.objects.push(object);
  }
  return { ok: true, value: [...groups.values()] };
}
