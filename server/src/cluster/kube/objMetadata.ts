/**
 * The cli-utils inventory key of an object (docs/gitlab-behaviour.md#inventories): `<namespace>_<name>_<group>_<kind>`, version
 * left out (the API server does not treat versions as different objects). RBAC kinds may have `:` in
 * their names, stored as `__`.
 */
import type { ObjectRef } from './objectRef';

/** An object as an inventory tracks it: no version. */
export type InventoryRef = Omit<ObjectRef, 'version'>;

const SEPARATOR = '_';
const COLON_TRANSCODED = '__';
const RBAC_GROUP = 'rbac.authorization.k8s.io';
const RBAC_KINDS = new Set(['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']);

/** Encodes a ref as an inventory data key (docs/gitlab-behaviour.md#inventories). */
export function encodeObjMetadata(ref: InventoryRef): string {
  const name = ref.group === RBAC_GROUP && RBAC_KINDS.has(ref.kind) ? ref.name.replaceAll(':', COLON_TRANSCODED) : ref.name;
  return [ref.namespace, name, ref.group, ref.kind].join(SEPARATOR);
}

/** Outcome of {@link parseObjMetadata}. */
export type ParsedObjMetadata = { readonly ok: true; readonly ref: InventoryRef } | { readonly ok: false; readonly message: string };

/**
 * Parses an inventory data key (docs/gitlab-behaviour.md#inventories): namespace = before the first `_`; kind = after the last;
 * group = between the last two; name = the rest with `__` → `:`; a `_` left in the name is an error,
 * as are an empty name or kind.
 */
export function parseObjMetadata(key: string): ParsedObjMetadata {
  const first = key.indexOf(SEPARATOR);
  if (first < 0) return { ok: false, message: `unable to parse stored object metadata: ${key}` };
  const namespace = key.slice(0, first);
  let rest = key.slice(first + 1);
  const last = rest.lastIndexOf(SEPARATOR);
  if (last < 0) return { ok: false, message: `unable to parse stored object metadata: ${rest}` };
  const kind = rest.slice(last + 1);
  rest = rest.slice(0, last);
  const beforeGroup = rest.lastIndexOf(SEPARATOR);
  if (beforeGroup < 0) return { ok: false, message: `unable to parse stored object metadata: ${rest}` };
  const group = rest.slice(beforeGroup + 1);
  const name = rest.slice(0, beforeGroup).replaceAll(COLON_TRANSCODED, ':');
  if (name.includes(SEPARATOR)) return { ok: false, message: `too many fields within: ${rest}` };
  if (name === '') return { ok: false, message: `empty name for object: ${key}` };
  if (kind === '') return { ok: false, message: `empty kind for object: ${key}` };
  return { ok: true, ref: { namespace, name, group, kind } };
}
