// What package.json names for the extension page and the welcome page exists and is packed: the
// icon, each walkthrough step's media and the images those link to, and the marketplace README (not
// the developer README) with its screenshots. Reads the .vsix itself (scripts/package.mjs packs it
// when it is older than its inputs).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..', '..');

interface PackageLib {
  MARKETPLACE_README: string;
  ensureVsix(options?: { build?: boolean | 'ifStale' }): Promise<string>;
  listZip(file: string): { name: string }[];
  readZipEntry(file: string, name: string): string | null;
}

interface Manifest {
  icon: string;
  contributes: { walkthroughs: { steps: { id: string; media: { markdown?: string; svg?: string; image?: string | Record<string, string> } }[] }[] };
}

const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as Manifest;
let pkg: PackageLib;
let vsix: string;
let packed: Set<string>;

before(async () => {
  pkg = (await import(pathToFileURL(path.join(root, 'scripts', 'package.mjs')).href)) as PackageLib;
  vsix = await pkg.ensureVsix({ build: 'ifStale' });
  packed = new Set(pkg.listZip(vsix).map((e) => e.name));
});

/** Relative image links of a markdown file, as paths from the repository root. */
function linkedImages(markdownFile: string, base: string): string[] {
  const text = readFileSync(path.join(root, markdownFile), 'utf8');
  return [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((link) => !/^[a-z]+:/i.test(link)).map((link) => path.posix.normalize(path.posix.join(base, link)));
}

function mediaOfSteps(): string[] {
  return manifest.contributes.walkthroughs.flatMap((w) =>
    w.steps.flatMap((step) => {
      const { markdown, svg, image } = step.media;
      return [markdown, svg, ...(typeof image === 'object' ? Object.values(image) : [image])].filter((f): f is string => typeof f === 'string');
    }),
  );
}

test('the icon is a 128×128 PNG in the repository and in the .vsix', () => {
  const png = readFileSync(path.join(root, manifest.icon));
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
  assert.ok(packed.has(`extension/${manifest.icon}`), `${manifest.icon} is not in ${vsix}`);
});

test('every walkthrough step has media, and it and the images it shows exist and are packed', () => {
  const steps = manifest.contributes.walkthroughs.flatMap((w) => w.steps);
  assert.equal(steps.length, 4);
  const files = mediaOfSteps();
  assert.equal(files.length, steps.length);
  const images = files.filter((f) => f.endsWith('.md')).flatMap((f) => linkedImages(f, path.posix.dirname(f)));
  assert.ok(images.length > 0);
  for (const file of [...files, ...images]) {
    assert.ok(existsSync(path.join(root, file)), `${file} does not exist`);
    assert.ok(packed.has(`extension/${file}`), `${file} is not in ${vsix}`);
  }
});

test('the .vsix README is the marketplace README, and the screenshots it shows are packed', () => {
  assert.equal(pkg.readZipEntry(vsix, 'extension/readme.md'), readFileSync(path.join(root, pkg.MARKETPLACE_README), 'utf8'));
  // vsce puts the README at the extension's root: its links are relative to that.
  const images = linkedImages(pkg.MARKETPLACE_README, '.');
  assert.ok(images.length >= 4, images.join(', '));
  for (const image of images) assert.ok(packed.has(`extension/${image}`), `${image} is not in ${vsix}`);
  assert.ok(![...packed].some((name) => name.toLowerCase() === 'extension/readme.md' && name !== 'extension/readme.md'), 'the developer README is packed too');
});
