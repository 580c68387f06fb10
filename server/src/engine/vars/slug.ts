import { sha256Base36Suffix } from './hash-suffix';
import { BoundedCache } from '../cache';

// Ruby strings index by character (code point); the `u` flag makes JavaScript replace an astral character
// (one Ruby character, two UTF-16 units) with one dash, as Ruby does.
const NOT_SLUG_CHAR = /[^a-z0-9]/gu;

/**
 * `Gitlab::Utils.slugify` (docs/gitlab-behaviour.md#ref-and-environment-slugs), used for `CI_COMMIT_REF_SLUG`, `CI_PROJECT_PATH_SLUG` and
 * `CI_JOB_NAME_SLUG`: lowercase, every character outside `[a-z0-9]` → `-`, first 63 characters, then leading
 * and trailing dash runs removed (after the cut, so the result may be shorter than 63; inner runs stay).
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(NOT_SLUG_CHAR, '-')
    .slice(0, 63)
    .replace(/^-+|-+$/g, '');
}

/** `CI_COMMIT_REF_SLUG` for a branch or tag name (docs/gitlab-behaviour.md#predefined-variables, docs/gitlab-behaviour.md#ref-and-environment-slugs). */
export function slugifyRef(ref: string): string {
  return slugify(ref);
}

/** `CI_PROJECT_PATH_SLUG` for a project's full path (docs/gitlab-behaviour.md#predefined-variables). */
export function projectPathSlug(projectPath: string): string {
  return slugify(projectPath);
}

/** The longest `CI_ENVIRONMENT_SLUG` GitLab produces. */
export const ENVIRONMENT_SLUG_MAX_LENGTH = 24;

/**
 * `Gitlab::Slug::Environment#generate` — `CI_ENVIRONMENT_SLUG` (docs/gitlab-behaviour.md#ref-and-environment-slugs):
 * 1. lowercase, every character outside `[a-z0-9]` → `-`;
 * 2. prefix `env-` unless it starts with a letter;
 * 3. squeeze dash runs;
 * 4. if longer than 24 or different from the name in any way: first 17 characters, a `-` unless already
 *    there, and a 6-character suffix from the SHA-256 of the original name; else drop one trailing `-`.
 */
export function environmentSlug(name: string): string {
  return environmentSlugs.get(name, generateEnvironmentSlug);
}

/**
 * Slugs of the environment names met lately. The checks simulate the same few environments (the
 * scenarios') for every `ci_access` entry of every file, and the slug of a name that has to change
 * (`review/feature-login`) takes a SHA-256.
 */
const environmentSlugs = new BoundedCache<string, string>(256);

function generateEnvironmentSlug(name: string): string {
  let slug = name.toLowerCase().replace(NOT_SLUG_CHAR, '-');
  if (!/^[a-z]/.test(slug)) slug = `env-${slug}`;
  slug = slug.replace(/-{2,}/g, '-');
  if (slug.length > ENVIRONMENT_SLUG_MAX_LENGTH || slug !== name) {
    let short = slug.slice(0, 17);
    if (!short.endsWith('-')) short += '-';
    return short + sha256Base36Suffix(name);
  }
  return slug.endsWith('-') ? slug.slice(0, -1) : slug;
}
