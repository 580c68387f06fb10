import path from 'node:path';
import { configProjectPathFromGit, repositoryRootOf } from './gitRemote';

/** How a file's repository is found: its remote's project path and its working tree (the editor remembers both). */
export interface RepositoryLookups {
  readonly remoteOf: (file: string) => string | null;
  readonly rootOf: (file: string) => string | null;
}

const FROM_DISK: RepositoryLookups = { remoteOf: configProjectPathFromGit, rootOf: repositoryRootOf };

/**
 * The GitLab project of the repository holding `file`, for the editor and the CLI alike: a
 * repository checked out inside one of the opened folders (`roots`: the editor's workspace folders,
 * the CLI's working directory) — one of several checkouts there — is the project of its own git
 * remote; the opened repository itself is the `setting`'s when one is given, else its remote's.
 * Empty when neither says.
 */
export function projectPathOf(file: string | null, setting: string, roots: readonly string[], lookups: RepositoryLookups = FROM_DISK): string {
  if (file === null) return setting;
  const repository = lookups.rootOf(file);
  const nested = repository !== null && roots.some((root) => repository.startsWith(path.resolve(root) + path.sep));
  if (setting && !nested) return setting;
  return lookups.remoteOf(file) ?? setting;
}
