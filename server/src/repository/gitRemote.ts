import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The GitLab project path of the repository holding `file`, from its `origin` remote (or the first
 * remote): `git@gitlab.com:group/sub/project.git` and `https://gitlab.com/group/sub/project.git` both
 * give `group/sub/project`. This is the agent's configuration project, which GitLab authorizes
 * implicitly (docs/gitlab-behaviour.md#authorization-order). Null when there is no repository or remote.
 */
export function configProjectPathFromGit(file: string): string | null {
  const gitDir = findGitDir(path.dirname(path.resolve(file)));
  if (!gitDir) return null;
  let config: string;
  try {
    config = readFileSync(path.join(gitDir, 'config'), 'utf8');
  } catch {
    return null;
  }
  const remotes = [...config.matchAll(/\[remote "([^"]+)"\]([^[]*)/g)].map((m) => ({ name: m[1], url: /^\s*url\s*=\s*(.+)$/m.exec(m[2])?.[1]?.trim() }));
  const remote = remotes.find((r) => r.name === 'origin' && r.url) ?? remotes.find((r) => r.url);
  return remote?.url ? projectPathFromRemoteUrl(remote.url) : null;
}

/** `git@host:a/b.git`, `ssh://git@host:22/a/b.git`, `https://host/a/b.git` → `a/b`. */
export function projectPathFromRemoteUrl(url: string): string | null {
  let pathPart: string;
  const scp = /^[^/@:]+@[^/:]+:(.+)$/.exec(url);
  if (scp && !url.includes('://')) pathPart = scp[1];
  else {
    try {
      pathPart = new URL(url).pathname;
    } catch {
      return null;
    }
  }
  const cleaned = decodeURIComponent(pathPart).replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '');
  return cleaned.includes('/') ? cleaned : null;
}

/** The working tree holding `file`: the nearest folder above it with a `.git`; null outside any repository. */
export function repositoryRootOf(file: string): string | null {
  let dir = path.dirname(path.resolve(file));
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

function findGitDir(start: string): string | null {
  // `start` is a folder: ask as for a file in it.
  const root = repositoryRootOf(path.join(start, '.git'));
  if (root === null) return null;
  const candidate = path.join(root, '.git');
  if (statSync(candidate).isDirectory()) return candidate;
  // A worktree or submodule: `.git` is a file pointing at the real directory.
  const pointer = /^gitdir:\s*(.+)$/m.exec(readFileSync(candidate, 'utf8'))?.[1];
  return pointer ? path.resolve(root, pointer.trim()) : null;
}
