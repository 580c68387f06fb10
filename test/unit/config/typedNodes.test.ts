// The yaml nodes the fast reader and the incremental model make without the library's
// constructors (server/src/engine/yaml/typedNodes.ts) read as the library's own: class,
// predicates, enumerable fields, `schema`, clone and serialization.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Document, isMap, isSeq, Schema, YAMLMap, YAMLSeq } from 'yaml';
import { collectionNode, pairNode, scalarNode } from '../../../server/src/engine/yaml/typedNodes';

const schema = new Document(undefined, { version: '1.1' }).schema as Schema;
const otherSchema = new Document().schema as Schema;

for (const given of [schema, undefined]) {
  test(`a collection ${given ? 'with' : 'without'} a schema is the library's: fields, schema, predicates, clone`, () => {
    const map = collectionNode(false, given);
    const seq = collectionNode(true, given);
    const library = [new YAMLMap(given), new YAMLSeq(given)];
    [map, seq].forEach((node, i) => {
      assert.equal(node.constructor, library[i]!.constructor);
      assert.deepEqual(Object.keys(node), Object.keys(library[i]!));
      assert.equal(node.schema, given);
      assert.equal(Object.getOwnPropertyDescriptor(library[i]!, 'schema')?.enumerable, false);
      assert.equal(JSON.stringify(node), JSON.stringify(library[i]));
    });
    assert.deepEqual([isMap(map), isSeq(map), map instanceof YAMLMap], [true, false, true]);
    assert.deepEqual([isSeq(seq), isMap(seq), seq instanceof YAMLSeq], [true, false, true]);
    map.items.push(pairNode(scalarNode('a'), seq));
    seq.items.push(scalarNode(1));
    assert.deepEqual(map.toJSON(), { a: [1] });
    const copy = map.clone(otherSchema) as YAMLMap;
    assert.equal(copy.schema, otherSchema);
    assert.equal(map.schema, given, 'the clone’s schema is its own');
    assert.deepEqual(copy.toJSON(), { a: [1] });
  });
}

test('setting one collection’s schema leaves the others of that schema alone', () => {
  const a = collectionNode(false, schema);
  const b = collectionNode(false, schema);
  a.schema = otherSchema;
  assert.equal(a.schema, otherSchema);
  assert.equal(b.schema, schema);
  assert.equal(collectionNode(false, schema).schema, schema);
});

test('a document serializes collections made here as the library’s', () => {
  const doc = new Document(undefined, { version: '1.1' });
  const map = collectionNode(false, doc.schema);
  map.items.push(pairNode(scalarNode('ci_access'), collectionNode(true, doc.schema)));
  (map.items[0]!.value as YAMLSeq).items.push(scalarNode('x'));
  doc.contents = map;
  assert.equal(String(doc), 'ci_access:\n  - x\n');
});
