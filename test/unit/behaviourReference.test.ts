// docs/gitlab-behaviour.md is the reference the code, tests, schemas and scripts cite, always as
// `docs/gitlab-behaviour.md#<anchor>`. These tests keep the citations followable: every cited anchor is
// a heading of the document, headings have distinct anchors, and no citation points at a document
// outside the repository (an external specification's "§" sections or numbered seed documents).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const root = path.resolve(import.meta.dirname, '..', '..');
const DOC = 'docs/gitlab-behaviour.md';

/** Directories that hold no sources of ours (generated, installed or downloaded). */
const SKIPPED_DIRS = new Set(['.git', 'node_modules', 'dist', 'test-output', '.cache', 'test/cluster/bin']);
/** Files that cite another standard's numbered sections (SARIF 2.1.0) throughout, which are not ours to map. */
const OTHER_STANDARDS = /^(server\/src\/cli\/reports\/|test\/unit\/reports\/|test\/fixtures\/sarif\/)/;
const MAX_BYTES = 4 * 1024 * 1024;

/** Every text file of the repository, as a path relative to the root with `/` separators. */
function repositoryFiles(dir = ''): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name) && !SKIPPED_DIRS.has(rel)) files.push(...repositoryFiles(rel));
    } else if (entry.isFile() && statSync(path.join(root, rel)).size <= MAX_BYTES) {
      files.push(rel);
    }
  }
  return files;
}

function textOf(file: string): string | undefined {
  const buffer = readFileSync(path.join(root, file));
  return buffer.includes(0) ? undefined : buffer.toString('utf8');
}

/** GitHub's heading anchor: lower case, punctuation other than `-` and `_` removed, spaces → `-`. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function headings(markdown: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (match) out.push(match[1]);
  }
  return out;
}

const doc = readFileSync(path.join(root, DOC), 'utf8');
const anchors = headings(doc).map(headingAnchor);

test('headingAnchor follows GitHub: punctuation dropped, `_` and `-` kept, spaces become dashes', () => {
  assert.equal(headingAnchor('ci_access entries'), 'ci_access-entries');
  assert.equal(headingAnchor('Protected namespaces (our rule)'), 'protected-namespaces-our-rule');
  assert.equal(headingAnchor('ci_access.rules: if expressions'), 'ci_accessrules-if-expressions');
});

test('the reference has distinct heading anchors, and its own links point at them', () => {
  const seen = new Set<string>();
  const duplicates = anchors.filter((a) => (seen.has(a) ? true : (seen.add(a), false)));
  assert.deepEqual(duplicates, [], 'two headings with the same anchor: GitHub would suffix the second one');
  const dangling = [...doc.matchAll(/\]\(#([^)\s]+)\)/g)].map((m) => m[1]).filter((a) => !anchors.includes(a));
  assert.deepEqual(dangling, [], 'links of the contents or between sections without a heading');
});

test('every citation of docs/gitlab-behaviour.md names an existing section', () => {
  const citation = /docs\/gitlab-behaviour\.md#([\p{L}\p{N}_-]+)/gu;
  const dangling: string[] = [];
  let cited = 0;
  for (const file of repositoryFiles()) {
    const text = textOf(file);
    if (text === undefined) continue;
    text.split('\n').forEach((line, i) => {
      for (const match of line.matchAll(citation)) {
        cited++;
        if (!anchors.includes(match[1])) dangling.push(`${file}:${i + 1}: #${match[1]}`);
      }
    });
  }
  assert.deepEqual(dangling, [], `citations of ${DOC} whose section does not exist`);
  assert.ok(cited > 300, `expected the code to cite the reference, found ${cited} citations`);
});

test('no citation points at a document outside the repository', () => {
  // Built from parts so that this file does not match itself.
  const section = '\u00a7';
  const outside = [
    new RegExp(`\\bspec(?:'s)?\\s*${section}`, 'i'),
    new RegExp(`\\bseed[ _-]?0\\d\\d`, 'i'),
    new RegExp(`\\bspec(?:ification)? section \\d`, 'i'),
  ];
  // A bare section sign is an outside specification's section too, unless the line names the standard it cites.
  const bareSection = new RegExp(`${section}\\s*\\d`);
  const namedStandard = /\bSARIF\b/;
  const found: string[] = [];
  for (const file of repositoryFiles()) {
    if (OTHER_STANDARDS.test(file)) continue;
    const text = textOf(file);
    if (text === undefined) continue;
    text.split('\n').forEach((line, i) => {
      if (outside.some((re) => re.test(line)) || (bareSection.test(line) && !namedStandard.test(line))) found.push(`${file}:${i + 1}: ${line.trim().slice(0, 120)}`);
    });
  }
  assert.deepEqual(found, [], `cite ${DOC}#<anchor> instead`);
});
