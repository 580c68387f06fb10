/** Ancestor group paths of a project path, closest first: `a/b/c` → [`a/b`, `a`]. */
export function ancestorGroups(projectPath: string): string[] {
  // Every simulated job asks: the path is cut at its slashes, not split and joined again.
  const path = withoutEmptySegments(projectPath);
  const out: string[] = [];
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) out.push(path.slice(0, slash));
  return out;
}

/** The top-level group or user namespace of a path. */
export function topLevelNamespace(projectPath: string): string {
  const path = withoutEmptySegments(projectPath);
  const slash = path.indexOf('/');
  return (slash === -1 ? path : path.slice(0, slash)).toLowerCase();
}

/** `path` without a leading, trailing or doubled slash (`/a//b/` → `a/b`); real paths have none and are returned as they are. */
function withoutEmptySegments(path: string): string {
  return path.startsWith('/') || path.endsWith('/') || path.includes('//') ? path.split('/').filter(Boolean).join('/') : path;
}
