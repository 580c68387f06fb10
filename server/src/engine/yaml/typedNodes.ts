import { Document, Pair, Scalar, YAMLMap, YAMLSeq, type Node, type Schema } from 'yaml';

/**
 * Nodes of the `yaml` library's classes, made without the library's constructors, for the fast
 * reader and the incremental model. Those constructors give every node its type (a symbol the
 * library's `isScalar`, `isMap`... read) with `Object.defineProperty`, which made node building the
 * largest single cost of reading a big file. Here the type sits once on a prototype per
 * class, under the library's own prototype: the predicates find it through the prototype chain,
 * and a node is still of the library's class (`constructor`, `instanceof`, its methods, `clone`),
 * with the same own fields. The symbols are `Symbol.for` names, the library's way of recognising
 * nodes across its copies.
 */
const NODE_TYPE = Symbol.for('yaml.node.type');

function typed<T extends object>(prototype: T, type: string): T {
  return Object.create(prototype, { [NODE_TYPE]: { value: Symbol.for(type) } }) as T;
}

const SCALAR_PROTOTYPE = typed(Scalar.prototype, 'yaml.scalar');
const PAIR_PROTOTYPE = typed(Pair.prototype, 'yaml.pair');
const MAP_PROTOTYPE = typed(YAMLMap.prototype, 'yaml.map');
const SEQ_PROTOTYPE = typed(YAMLSeq.prototype, 'yaml.seq');
const DOCUMENT_PROTOTYPE = typed(Document.prototype, 'yaml.document');

/** `new Scalar(value)`. */
export function scalarNode(value: unknown): Scalar {
  const node = Object.create(SCALAR_PROTOTYPE) as Scalar;
  node.value = value;
  return node;
}

/** `new Pair(key, value)`. */
export function pairNode(key: Node, value: Node | null): Pair<Node, Node | null> {
  const node = Object.create(PAIR_PROTOTYPE) as Pair<Node, Node | null>;
  node.key = key;
  node.value = value;
  return node;
}

/**
 * `new YAMLMap(schema)` or `new YAMLSeq(schema)`. The library defines `schema` on each collection,
 * not enumerable; here it sits, not enumerable and writable, on a prototype per schema (one
 * `Object.defineProperty` per collection showed in profiles of a batch). Reading `node.schema` gives the same; `Object.keys` and the data do not show it either way.
 */
export function collectionNode(seq: true, schema?: Schema): YAMLSeq;
export function collectionNode(seq: false, schema?: Schema): YAMLMap;
export function collectionNode(seq: boolean, schema?: Schema): YAMLMap | YAMLSeq;
export function collectionNode(seq: boolean, schema?: Schema): YAMLMap | YAMLSeq {
  const prototypes = schema ? collectionPrototypesOf(schema) : WITHOUT_SCHEMA;
  const node = Object.create(seq ? prototypes.seq : prototypes.map) as YAMLMap | YAMLSeq;
  node.items = [];
  return node;
}

interface CollectionPrototypes {
  readonly map: object;
  readonly seq: object;
}

function collectionPrototypes(schema: Schema | undefined): CollectionPrototypes {
  const property = { schema: { value: schema, configurable: true, enumerable: false, writable: true } };
  return { map: Object.create(MAP_PROTOTYPE, property), seq: Object.create(SEQ_PROTOTYPE, property) };
}

const WITHOUT_SCHEMA = collectionPrototypes(undefined);
const prototypesBySchema = new WeakMap<Schema, CollectionPrototypes>();

function collectionPrototypesOf(schema: Schema): CollectionPrototypes {
  let prototypes = prototypesBySchema.get(schema);
  if (!prototypes) prototypesBySchema.set(schema, (prototypes = collectionPrototypes(schema)));
  return prototypes;
}

/** A document of the library's class without its fields: the caller gives it those `new Document(…)` would. */
export function documentNode(): Document.Parsed {
  return Object.create(DOCUMENT_PROTOTYPE) as Document.Parsed;
}
