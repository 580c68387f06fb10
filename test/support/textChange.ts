/** The characters two texts share at the start and (not overlapping it) at the end, compared one by one: what the incremental model's quicker ways must find. */
export function sharedEndsByCharacter(before: string, after: string): { prefix: number; suffix: number } {
  let prefix = 0;
  while (prefix < Math.min(before.length, after.length) && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (suffix < Math.min(before.length, after.length) - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  return { prefix, suffix };
}
