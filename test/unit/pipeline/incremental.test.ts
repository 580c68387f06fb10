// The file is parsed one top-level entry at a time, each entry's parse kept by its text; the result
// must be exactly the whole document's, whatever the file holds (fixtures, anchors across entries,
// broken entries, edits), and falls back to the whole document where entries cannot stand alone.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { readTree, type TopLevelBlock } from '../../../server/src/engine/pipeline/tree';
import { readPipeline } from '../../../server/src/engine/pipeline/index';
import { FIXTURES } from './pipelineFixtures';
import { benchPipeline, edit, random } from './randomEdits';

/** Reads `text` entry by entry (taking trees from `previous`, an earlier reading's entries) and checks it reads as the whole document; returns its entries. */
function same(text: string, previous?: readonly TopLevelBlock[]): readonly TopLevelBlock[] | undefined {
  // The entry-by-entry reading also lists the entries it read (for reuse); the rest (tree, problems,
  // header) must be the whole document's.
  const { blocks, ...tree } = readTree(text, 'f.yml', previous ? { previous } : {});
  assert.deepEqual(tree, readTree(text, 'f.yml', { incremental: false }));
  return blocks;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const abs = path.join(dir, name);
    return statSync(abs).isDirectory() ? files(abs) : [abs];
  });
}

describe('entry by entry equals the whole document', () => {
  for (const file of files(FIXTURES)) {
    test(path.relative(FIXTURES, file), () => void same(readFileSync(file, 'utf8')));
  }
  for (const file of ['examples/.gitlab-ci.yml']) {
    test(file, () => void same(readFileSync(path.resolve(import.meta.dirname, '..', '..', '..', file), 'utf8')));
  }

  const rows: Array<[string, string]> = [
    ['anchors used by later entries', '.d: &d\n  stage: x\na:\n  <<: *d\n  script: y\nb:\n  variables: *d\n'],
    ['an alias before its anchor', 'a:\n  x: *d\n.d: &d {y: 1}\n'],
    ['a flow collection closed at column 0', 'a: [1,\n2]\nb: 3\n'],
    ['a key repeated', 'a: 1\nb: 2\na: 3\n'],
    ['an entry repeated word for word', 'a:\n  b: 1\nc: 2\na:\n  b: 1\n'],
    ['comments and blank lines at column 0', '# top\na:\n# inside\n  b: 1\n\nc: 2\n'],
    ['a broken entry among good ones', 'a:\n  b: [\nc: 2\n'],
    ['a document marker', 'a: 1\n---\nb: 2\n'],
    ['a top-level merge key', '.d: &d {x: 1}\n<<: *d\ny: 2\n'],
    ['quoted keys', '"a b": 1\n\'c\': 2\n'],
    ['a block scalar', 'a: |\n  line\n\n  more\nb: 2\n'],
    ['tabs in content', 'a:\n\tb: 1\nc: 2\n'],
    ['CRLF line ends', 'a:\r\n  b: 1\r\nc: 2\r\n'],
    ['an entry that is only a key', 'a:\nb:\n  c: 1\n'],
    ['!reference across entries', '.a:\n  s: [x]\nb:\n  s: !reference [.a, s]\n'],
  ];
  for (const [what, text] of rows) test(what, () => void same(text));
});

describe('editing one job', () => {
  test('re-reading after an edit gives what a fresh whole read gives', () => {
    let text = '.base: &base\n  stage: deploy\n';
    for (let i = 0; i < 200; i++) text += `job${i}:\n  <<: *base\n  script:\n    - kubectl --context a:${i} get pods\n`;
    readPipeline(text, () => null);
    const edited = text.replace('kubectl --context a:100 get pods', 'kubectl --context a:100-edited get pods\n    - echo more');
    same(edited);
    const job = readPipeline(edited, () => null).jobs.find((j) => j.name === 'job100')!;
    assert.deepEqual(job.kubeContexts.map((c) => [c.context, c.location.range.start.line]), [['a:100-edited', 405]]);
    assert.equal(readPipeline(edited, () => null).jobs.find((j) => j.name === 'job101')!.kubeContexts[0].location.range.start.line, 410);
  });
});

describe('entries taken from the earlier reading', () => {
  test('an entry whose alias reaches an edited anchor is converted again, even where it did not move', () => {
    const text = '.a: &a {x: 1}\nb: *a\n';
    const edited = text.replace('x: 1', 'x: 2');
    const blocks = same(text);
    same(edited, blocks);
    const root = readTree(edited, 'f.yml', { previous: blocks }).root;
    const b = root?.kind === 'map' ? root.entries.get('b')?.value : undefined;
    const x = b?.kind === 'map' ? b.entries.get('x')?.value : undefined;
    assert.equal(x?.kind === 'scalar' ? x.text : undefined, '2');
  });

  test('an entry that defines an anchor is converted again, so later aliases find it', () => {
    // .a is edited in place and read again; .b, unmoved, must be converted too, or c's alias would find .a's anchor.
    const text = '.a: &a {x: 1}\n.b: &a {x: 2}\nc: *a\n';
    same(text.replace('x: 1', 'x: 3').replace('c: *a', 'c: [*a]'), same(text));
  });
});

describe('random edits in sequence', () => {
  // Entries converted at the same place in the earlier reading are taken again; every version must still read as the whole document.
  for (const [name, text] of [['the bench pipeline', benchPipeline(60)], ...files(FIXTURES).map((file) => [path.relative(FIXTURES, file), readFileSync(file, 'utf8')])]) {
    test(name, () => {
      const next = random(7);
      let taken = 0;
      for (let round = 0; round < 6; round++) {
        let current = text;
        let blocks = same(current);
        for (let step = 0; step < 15; step++) {
          const before = new Set(blocks?.map((b) => b.entry));
          blocks = same((current = edit(current, next)), blocks) ?? blocks;
          taken += blocks?.filter((b) => before.has(b.entry)).length ?? 0;
        }
      }
      // A file that does not read entry by entry (left-over merge-conflict markers, say) has nothing to take.
      if (readTree(text, 'f.yml').blocks) assert.ok(taken > 0, 'some entries are taken from the earlier reading');
    });
  }
});

describe('every prefix and every line damaged, of every fixture', () => {
  // Truncated and damaged files must neither throw nor make the two paths disagree.
  for (const file of files(FIXTURES)) {
    test(path.relative(FIXTURES, file), () => {
      const text = readFileSync(file, 'utf8');
      for (let cut = 0; cut <= text.length; cut += 5) {
        const prefix = text.slice(0, cut);
        same(prefix);
        readPipeline(prefix, () => null);
      }
      const lines = text.split('\n');
      const withLine = (i: number, ...replacement: string[]) => [...lines.slice(0, i), ...replacement, ...lines.slice(i + 1)].join('\n');
      for (let i = 0; i < lines.length; i++) {
        // Removed, indented, dedented, doubled, an unclosed bracket, a colon lost.
        for (const damaged of [withLine(i), withLine(i, `  ${lines[i]}`), withLine(i, lines[i].replace(/^ {2}/, '')), withLine(i, lines[i], lines[i]), withLine(i, `${lines[i]} [`), withLine(i, lines[i].replace(':', ''))]) {
          same(damaged);
          readPipeline(damaged, () => null);
        }
      }
    });
  }
});
