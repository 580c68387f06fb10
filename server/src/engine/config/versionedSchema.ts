import baseSchema from '../../../../schemas/agent-config.schema.json';
import { authorizedEntityLimit, hasBehaviour, keyStatus, MAX_AUTHORIZED_ENTITIES, NEWEST_GITLAB_VERSION, VERSIONED_KEYS, type GitlabVersion, type VersionedKey } from '../gitlab/gitlabVersions';
import { LEGACY_SCHEMAS } from './legacySchemas';
import type { SchemaNode } from './schemaNode';
import { BoundedCache } from '../cache';

/** What a key absent from a version carries in that version's schema (validation fails on it; completion skips it). */
export interface NotYetMarker {
  readonly key: string;
  readonly added: GitlabVersion;
  readonly version: GitlabVersion;
}

/** What a deprecated key carries: validation reports it as a warning, its contents are still checked. */
export interface DeprecatedMarker {
  readonly message: string;
}

const schemas = new BoundedCache<GitlabVersion, SchemaNode>(256);

/**
 * The agent configuration schema as GitLab `version` reads it (docs/gitlab-behaviour.md#gitlab-versions):
 * the schema file describes the newest release; keys added later are marked `x-notYet`, removed
 * keys a version still parses get their old schema back (with `x-deprecated` once GitLab announced
 * their removal), and `x-removed` keys say in which release they went. Built once per version.
 */
export function agentConfigSchemaFor(version: GitlabVersion = NEWEST_GITLAB_VERSION): SchemaNode {
  return schemas.get(version, buildSchemaFor);
}

function buildSchemaFor(version: GitlabVersion): SchemaNode {
  const schema = structuredClone(baseSchema) as SchemaNode;
  for (const key of VERSIONED_KEYS) for (const path of key.paths) applyKey(schema, path, key, version);
  const limit = authorizedEntityLimit(version);
  if (limit !== MAX_AUTHORIZED_ENTITIES) {
    // Hover says how many entries this release reads (docs/gitlab-behaviour.md#top-level-keys-and-list-limits).
    for (const section of ['ci_access', 'user_access']) {
      for (const list of ['projects', 'groups']) {
        const node = propertiesOf(propertiesOf(schema)?.[section] ?? null)?.[list];
        if (!node || node['x-notYet']) continue;
        node['x-entryLimit'] = limit;
        for (const key of ['description', 'markdownDescription'] as const) {
          const text = node[key];
          if (typeof text === 'string') node[key] = text.replace(`${MAX_AUTHORIZED_ENTITIES}`, `${limit}`) + ` (GitLab ${version}; ${MAX_AUTHORIZED_ENTITIES} from 17.0)`;
        }
      }
    }
  }
  if (!hasBehaviour('userAccessAsOptional', version)) {
    const userAccess = propertiesOf(schema)?.user_access;
    if (userAccess && !userAccess['x-notYet']) userAccess.required = ['access_as'];
  }
  return schema;
}

function applyKey(root: SchemaNode, path: string, key: VersionedKey, version: GitlabVersion): void {
  const segments = path.split('.');
  const name = segments.pop()!;
  let parent: SchemaNode | null = root;
  for (const segment of segments) {
    const list = segment.endsWith('[]');
    parent = propertiesOf(parent)?.[list ? segment.slice(0, -2) : segment] ?? null;
    if (parent && list) parent = (parent.items as SchemaNode | undefined) ?? null;
    if (!parent) return; // an enclosing key is itself absent from this version
  }
  const properties = propertiesOf(parent);
  if (!properties) return;
  const status = keyStatus(key, version);
  const legacy = LEGACY_SCHEMAS[path];
  switch (status.kind) {
    case 'current':
      if (legacy) properties[name] = legacy;
      return;
    case 'notYet': {
      const message = `Not in GitLab ${version}: \`${name}\` was added in ${status.added}.`;
      const marker: NotYetMarker = { key: name, added: status.added, version };
      properties[name] = { 'x-notYet': marker, description: message, markdownDescription: message };
      return;
    }
    case 'deprecated': {
      const marker: DeprecatedMarker = { message: status.note };
      const base = legacy ?? properties[name];
      // Hover and completion show the deprecation first, then what the key does.
      const described = (text: unknown) => (typeof text === 'string' ? `${status.note}\n\n${text}` : status.note);
      properties[name] = { ...base, 'x-deprecated': marker, deprecationMessage: status.note, description: described(base.description), markdownDescription: described(base.markdownDescription) };
      return;
    }
    case 'removed': {
      // `advice` where the successor is not a key (gitops → Flux the tool, not the `flux` section).
      const current = properties[name]?.['x-removed'] as { replacement?: string; renameTo?: string; advice?: string } | undefined;
      const advice = current?.advice ?? (current?.replacement ? `Use \`${current.replacement}\`.` : '');
      const message = `\`${name}\` was removed in ${status.removed}: GitLab ${version} no longer reads it, and an unknown key makes the agent reject the whole configuration.${advice ? ` ${advice}` : ''}`;
      properties[name] = {
        'x-removed': { since: status.removed, message, ...(current?.replacement ? { replacement: current.replacement } : {}), ...(current?.renameTo ? { renameTo: current.renameTo } : {}) },
        deprecationMessage: message,
        description: message,
        markdownDescription: message,
      };
      return;
    }
  }
}

function propertiesOf(schema: SchemaNode | null): Record<string, SchemaNode> | null {
  const properties = schema?.properties;
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, SchemaNode>) : null;
}
