/**
 * The YAML layer (server/src/engine/yaml/) builds the `yaml` library's own Document without the
 * library's lexer, parser and constructors (fastBlockYaml.ts, typedNodes.ts). That mirrors one release
 * of the library, so package.json pins that exact release and this test fails on any other, before
 * the differential test (fastBlockYaml.test.ts) has to find out what changed. Upgrading `yaml` means:
 * bump the pin, rerun that differential test, and recheck each internal below against the new source.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { Composer, Document, isMap, isPair, isScalar, isSeq, parseDocument, Scalar } from 'yaml';
import { collectionNode, documentNode, pairNode, scalarNode } from '../../server/src/engine/yaml/typedNodes';

const root = path.resolve(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
const installed = (createRequire(import.meta.url)('yaml/package.json') as { version: string }).version;

/** What the fast reader relies on that the library does not promise, each checked below. */
const INTERNALS = [
  "node types are `Symbol.for('yaml.node.type')` properties holding `Symbol.for('yaml.scalar' | 'yaml.pair' | 'yaml.map' | 'yaml.seq' | 'yaml.document')`",
  "a schema keeps its string tag under `Symbol.for('yaml.scalar')` and its scalar tags in `tags` (`default`, `test`, `resolve`)",
  '`Composer` keeps `directives` (with `atDocument()`) and `options`; `new Document(undefined, { _directives, ...options })` is how it starts a document',
  "a parsed Document's own fields, in the constructor's order: commentBefore, comment, errors, warnings, options, directives, schema, contents",
  'where the parser puts comments and blank lines (`yaml/dist/parse/parser.js`) and how the composer reads them (`resolveProps`, `resolveEnd`, `emptyScalarPosition`): the differential test holds these',
] as const;

test('package.json pins the exact yaml release the fast reader mirrors, and that release is installed', () => {
  assert.match(manifest.devDependencies.yaml, /^\d+\.\d+\.\d+$/, 'pin an exact version: the fast reader mirrors one release of the library');
  assert.equal(installed, manifest.devDependencies.yaml, `yaml ${installed} is installed, the YAML layer mirrors ${manifest.devDependencies.yaml}: ${INTERNALS.length} internals to recheck (yamlLibraryPin.test.ts)`);
});

test('nodes made without the constructors are the library’s nodes', () => {
  const node = Symbol.for('yaml.node.type');
  const scalar = scalarNode('x');
  assert.equal((new Scalar('x') as unknown as Record<symbol, symbol>)[node], Symbol.for('yaml.scalar'));
  assert.ok(isScalar(scalar) && scalar instanceof Scalar);
  assert.ok(isPair(pairNode(scalar, null)));
  assert.ok(isMap(collectionNode(false)) && isSeq(collectionNode(true)));
  assert.ok(documentNode() instanceof Document);
});

test('the schema, composer and document fields the fast reader copies are where it reads them', () => {
  const doc = parseDocument('a: 1\n', { version: '1.1' });
  const schema = doc.schema as unknown as Record<symbol, { resolve?: unknown }> & { tags: { resolve?: unknown }[] };
  assert.equal(typeof schema[Symbol.for('yaml.scalar')]?.resolve, 'function');
  assert.ok(schema.tags.length > 0 && schema.tags.every((tag) => typeof tag.resolve === 'function'));
  const composer = new Composer({ version: '1.1' }) as unknown as { directives: { atDocument(): unknown }; options: object };
  assert.equal(typeof composer.directives.atDocument, 'function');
  assert.equal(typeof composer.options, 'object');
  assert.deepEqual(Object.keys(new Document(undefined, { _directives: composer.directives, ...composer.options } as object)).slice(0, 8), ['commentBefore', 'comment', 'errors', 'warnings', 'options', 'directives', 'schema', 'contents']);
});
