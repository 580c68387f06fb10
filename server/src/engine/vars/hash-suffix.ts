import { createHash } from 'node:crypto';

/**
 * GitLab's slug suffix (docs/gitlab-behaviour.md#ref-and-environment-slugs): `Digest::SHA2.hexdigest(text).to_i(16).to_s(36).last(6)` — the SHA-256
 * of the UTF-8 text read as one big integer, written in base 36, last `length` characters. BigInt keeps all
 * 256 bits; a float would lose the low digits that form the suffix.
 */
export function sha256Base36Suffix(text: string, length = 6): string {
  const hex = createHash('sha256').update(text, 'utf8').digest('hex');
  const base36 = BigInt(`0x${hex}`).toString(36);
  return base36.slice(-length);
}
