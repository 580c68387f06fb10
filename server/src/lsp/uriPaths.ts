import { fileURLToPath } from 'node:url';

/**
 * The file-system path of a `file:` URI, or null when it is not a local path here (another scheme,
 * or a `file://host/share` URI off Windows, which `fileURLToPath` refuses by throwing).
 */
export function localFilePath(uri: string): string | null {
  if (!uri.startsWith('file:')) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

/**
 * A path to classify a document by (`.gitlab/agents/<agent>/…`): the decoded local path, so two
 * spellings of one file compare equal, or the URI's path for other schemes. Never throws.
 */
export function documentPath(uri: string): string {
  const local = localFilePath(uri);
  if (local !== null) return local;
  try {
    return new URL(uri).pathname;
  } catch {
    return uri;
  }
}
