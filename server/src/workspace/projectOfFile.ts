import path from 'node:path';
import { configProjectPathFromGit, repositoryRootOf } from './gitRemote';

/**
 * The GitLab project of the repository holding `file`, for the editor and the CLI alike: a
 * repository checked out inside one of the opened folders (`roots`: the editor's workspace folders,
 * the CLI's working directory) — one of several checkouts there — is the project of its own git
 * remote; the opened repository itself is the `setting`'s when one is given, else its remote's.
 * Empty when neither says. `remoteOf` reads a file's remote (the editor remembers them).
 */
export function projectPathOf(file: string | null, setting: string, roots: readonly string[], remoteOf: (file: string) => string | null = configProjectPathFromGit): string {
  if (file === null) return setting;
  const repository = repositoryRootOf(file);
  const nested = repository !== null && roots.some((root) => repository.startsWith(path.resolve(root) + path.sep));
  if (setting && !nested) return setting;
  return remoteOf(file) ?? setting;
}
