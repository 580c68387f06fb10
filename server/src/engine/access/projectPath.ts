/** Ancestor group paths of a project path, closest first: `a/b/c` → [`a/b`, `a`]. */
export function ancestorGroups(projectPath: string): string[] {
  // Every simulated job asks: a path without empty segments (all real ones) is cut at its slashes
  // without splitting and joining it again.
  if (hasEmptySegment(projectPath)) {
    const parts = projectPath.split('/').filter(Boolean);
    const out: string[] = [];
    for (let i = parts.length - 1; i >= 1; i--) out.push(parts.slice(0, i).join('/'));
    return out;
  }
  const out: string[] = [];
  for (let slash = projectPath.lastIndexOf('/'); slash > 0; slash = projectPath.lastIndexOf('/', slash - 1)) out.push(projectPath.slice(0, slash));
  return out;
}

/** The top-level group or user namespace of a path. */
export function topLevelNamespace(path: string): string {
  if (hasEmptySegment(path)) return path.split('/').filter(Boolean)[0]?.toLowerCase() ?? '';
  const slash = path.indexOf('/');
  return (slash === -1 ? path : path.slice(0, slash)).toLowerCase();
}

/** A leading, trailing or doubled slash (`/a`, `a/`, `a//b`). */
function hasEmptySegment(path: string): boolean {
  return path.startsWith('/') || path.endsWith('/') || path.includes('//');
}
