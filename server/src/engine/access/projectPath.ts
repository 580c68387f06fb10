/** Ancestor group paths of a project path, closest first: `a/b/c` → [`a/b`, `a`]. */
export function ancestorGroups(projectPath: string): string[] {
  const parts = projectPath.split('/').filter(Boolean);
  const out: string[] = [];
  for (let i = parts.length - 1; i >= 1; i--) out.push(parts.slice(0, i).join('/'));
  return out;
}

/** The top-level group or user namespace of a path. */
export function topLevelNamespace(path: string): string {
  return path.split('/').filter(Boolean)[0]?.toLowerCase() ?? '';
}
