import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Folders no pipeline includes from: git's own and installed dependencies (never committed). */
const SKIPPED = new Set(['.git', 'node_modules']);
/** A bound on one listing, so a wildcard at the root of a huge tree cannot stall the map. */
const MAX_FILES = 20_000;

/**
 * The files under `directory` of the repository at `root` (repository-relative, `/`-separated, any
 * depth), for `include:local` wildcards; symbolic links are not followed.
 */
export function repositoryFiles(root: string): (directory: string) => string[] {
  return (directory) => {
    // A repository path never leaves the repository.
    if (directory.split('/').includes('..')) return [];
    const found: string[] = [];
    const pending = [directory.replace(/^\/+|\/+$/g, '')];
    while (pending.length && found.length < MAX_FILES) {
      const relative = pending.pop()!;
      let entries;
      try {
        entries = readdirSync(path.join(root, relative), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const name = relative ? `${relative}/${entry.name}` : entry.name;
        if (entry.isDirectory() && !SKIPPED.has(entry.name)) pending.push(name);
        else if (entry.isFile()) found.push(name);
      }
    }
    return found;
  };
}
