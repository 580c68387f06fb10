import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { TextDocuments } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { classifyPath, readAgentConfig } from '../engine/api';
import { idsOfConfig, indexIds, MAX_CONFIG_BYTES, type KnownIds } from '../engine/api/editor';
import type { DocumentModels } from './documentModels';
import { documentPath, localFilePath } from './uriPaths';

type Ids = ReturnType<typeof idsOfConfig>;

/** How long a scan of the workspace folders is trusted before the next completion refreshes it. */
const RESCAN_AFTER_MS = 10_000;

/**
 * Project and group ids used by the agent configurations of the workspace: the open documents (as
 * edited) and the `.gitlab/agents/<agent>/config.yaml` files on disk under each workspace folder
 * (and one folder level below, e.g. `examples/.gitlab/agents`). Disk files are read in the
 * background and cached by modification time; completion never waits for the disk.
 */
export class WorkspaceIds {
  /** By file path: an open document's URI may spell the same path differently (VS Code encodes `@`, `(`…). */
  private readonly onDisk = new Map<string, { mtimeMs: number; ids: Ids }>();
  private readonly openIds = new Map<string, { version: number; ids: Ids }>();
  private lastScan = 0;
  private scanning: Promise<void> | null = null;

  constructor(
    private readonly documents: TextDocuments<TextDocument>,
    private readonly models: DocumentModels,
    private readonly folders: () => readonly string[],
  ) {}

  /**
   * The ids known now. Only the very first call waits for the disk scan; later ones answer from the
   * cache and refresh it in the background when it is stale.
   */
  async current(): Promise<KnownIds> {
    if (this.lastScan === 0) await this.refresh();
    else if (Date.now() - this.lastScan > RESCAN_AFTER_MS) void this.refresh();
    const sources = new Map<string, Ids>();
    const open = new Set<string>();
    for (const document of this.documents.all()) {
      const file = documentPath(document.uri);
      const kind = classifyPath(file);
      if (kind.kind !== 'agentConfig') continue;
      open.add(file);
      sources.set(label(kind.agentName, sources), this.idsOfOpen(document));
    }
    for (const [file, entry] of this.onDisk) {
      if (open.has(file)) continue;
      const kind = classifyPath(file);
      if (kind.kind === 'agentConfig') sources.set(label(kind.agentName, sources), entry.ids);
    }
    return indexIds(sources);
  }

  /** Scans the workspace folders now (also used to warm the cache at start-up). */
  refresh(): Promise<void> {
    this.scanning ??= this.scan().finally(() => {
      this.lastScan = Date.now();
      this.scanning = null;
    });
    return this.scanning;
  }

  private idsOfOpen(document: TextDocument): Ids {
    const hit = this.openIds.get(document.uri);
    if (hit && hit.version === document.version) return hit.ids;
    const ids = idsOfConfig(this.models.get(document).value);
    this.openIds.set(document.uri, { version: document.version, ids });
    return ids;
  }

  private async scan(): Promise<void> {
    const found = new Set<string>();
    for (const folder of this.folders()) {
      for (const agents of await agentDirectories(folder)) {
        for (const agent of await listDirectory(agents)) {
          for (const name of ['config.yaml', 'config.yml']) {
            const file = path.join(agents, agent, name);
            const info = await stat(file).catch(() => null);
            if (!info?.isFile()) continue;
            // GitLab refuses configs over 128 KiB (docs/gitlab-behaviour.md#config-file-location-and-parsing), so their ids authorize nothing; skipping
            // them also spares a whole-file parse of a generated file at start-up (open ones still count).
            if (info.size > MAX_CONFIG_BYTES) continue;
            found.add(file);
            if (this.onDisk.get(file)?.mtimeMs === info.mtimeMs) continue;
            const text = await readFile(file, 'utf8').catch(() => null);
            if (text !== null) this.onDisk.set(file, { mtimeMs: info.mtimeMs, ids: idsOfConfig(readAgentConfig(text).parsed.value) });
          }
        }
      }
    }
    for (const file of this.onDisk.keys()) if (!found.has(file)) this.onDisk.delete(file);
  }
}

/** `<folder>/.gitlab/agents` and `<folder>/<child>/.gitlab/agents`, where they exist. */
async function agentDirectories(folder: string): Promise<string[]> {
  const candidates = [path.join(folder, '.gitlab', 'agents')];
  for (const child of await listDirectory(folder)) {
    if (!child.startsWith('.') && child !== 'node_modules') candidates.push(path.join(folder, child, '.gitlab', 'agents'));
  }
  const out: string[] = [];
  for (const dir of candidates) if ((await stat(dir).catch(() => null))?.isDirectory()) out.push(dir);
  return out;
}

async function listDirectory(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => []);
}

/** Sources are named by agent; two agents of the same name in different folders stay apart. */
function label(agentName: string, taken: ReadonlyMap<string, unknown>): string {
  let name = `agent ${agentName}`;
  for (let i = 2; taken.has(name); i++) name = `agent ${agentName} (${i})`;
  return name;
}


/**
 * The workspace folders of `initialize` as file-system paths (the root URI when the client sends no
 * folders). Folders that are not local paths here (other schemes, a `file://host/` share off Windows)
 * are left out: they cannot be scanned, and `initialize` must not fail over them.
 */
export function workspaceFolderPaths(params: { workspaceFolders?: { uri: string }[] | null; rootUri?: string | null }): string[] {
  const uris = params.workspaceFolders?.length ? params.workspaceFolders.map((f) => f.uri) : params.rootUri ? [params.rootUri] : [];
  return uris.flatMap((uri) => localFilePath(uri) ?? []);
}
