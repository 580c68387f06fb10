import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCollection, isNode, isPair } from 'yaml';
import { presetScenarios } from '../../../server/src/engine/access/scenarios';
import { IncrementalAgentConfig } from '../../../server/src/engine/config/incremental/incrementalConfig';
import { rescanLayout, scanLayout } from '../../../server/src/engine/config/incremental/layout';
import { pathAtOffset } from '../../../server/src/engine/yaml/pathAtOffset';
import { validateAgentConfig, type ValidateOptions } from '../../../server/src/engine/config/validateAgentConfig';
import { parseYaml } from '../../../server/src/engine/yaml/yamlDocument';
import { agentConfigContext } from '../../../server/src/engine/completion';
import { SplicedText, type TextSource } from '../../../server/src/engine/text/splicedText';
import { TextIndex } from '../../../server/src/engine/text/textIndex';
import { generateAgentConfig, generateVariedAgentConfig, seededRandom } from '../../support/generateConfig';
import { sharedEndsByCharacter as change } from '../../support/textChange';

const OPTIONS: ValidateOptions = {
  target: 'proposal',
  agentName: 'bench',
  rules: { agent: { configProjectPath: 'acme/infra', name: 'bench' }, scenarios: presetScenarios('main'), defaultBranch: 'main', options: { noRuleMatch: 'deny', overlongNamespace: 'error' } },
};

/** What a user types: characters that keep YAML valid and ones that break it, new lines, deletions. */
function randomEdit(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1));
  const kind = random();
  if (kind < 0.45) {
    const chars = ['a', 'Z', '-', '_', '$', ' ', ':', '"', "'", '#', '{', '[', '\n', '0', '/', '*', '&'];
    return text.slice(0, at) + chars[Math.floor(random() * chars.length)] + text.slice(at);
  }
  if (kind < 0.8) return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 4));
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = text.indexOf('\n', at);
  const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd + 1);
  // Duplicate or delete a whole line: entries appear, vanish, change index.
  return kind < 0.9 ? text.slice(0, lineStart) + line + text.slice(lineStart) : text.slice(0, lineStart) + text.slice(lineStart + line.length);
}

/** `text` as the editor keeps it after edits: `base` (the text it last joined) with the span they changed replaced. */
function splicedOn(base: string, text: string): SplicedText {
  const { prefix, suffix } = change(base, text);
  return new SplicedText(base, prefix, text.slice(prefix, text.length - suffix), suffix);
}

/** `source`: the text as the model is given it (by default the string). */
function assertSameAsWhole(incremental: IncrementalAgentConfig, text: string, owner: unknown, step: string, source: TextSource = text): void {
  const model = incremental.update(source);
  assert.equal(model.text, text, `text of the model ${step}`);
  const diagnostics = incremental.diagnostics(OPTIONS, owner);
  assert.deepEqual(diagnostics, validateAgentConfig(text, OPTIONS), `diagnostics differ ${step}`);
  const whole = parseYaml(text);
  assert.deepEqual(model.value, whole.value, `model data differs ${step}`);
  if (whole.doc && !whole.hasSyntaxErrors) {
    for (let offset = 0; offset < text.length; offset += 97) {
      assert.deepEqual(pathAtOffset(model.doc!, offset), pathAtOffset(whole.doc, offset), `path at offset ${offset} differs ${step}`);
    }
    // Every node where the whole parse puts it (entries are moved lazily: reading them here moves them).
    if (incremental.incremental) assert.deepEqual(nodeRanges(model.doc!.contents), nodeRanges(whole.doc.contents), `node ranges differ ${step}`);
  }
}

/**
 * Where every node of a tree starts and ends, in document order, with its depth. Not `range[2]`
 * (where the comments and blank lines after a node end): at the last node of an entry followed by
 * a blank line it already differed from the whole parse before entries were moved lazily.
 */
function nodeRanges(root: unknown): string[] {
  const out: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (isPair(node)) {
      walk(node.key, depth);
      walk(node.value, depth);
    } else if (isNode(node)) {
      out.push(`${depth}:${node.range?.slice(0, 2).join(',')}`);
      if (isCollection(node)) node.items.forEach((item) => walk(item, depth + 1));
    }
  };
  walk(root, 0);
  return out;
}

describe('incremental validation equals a from-scratch validation', () => {
  // From seed 7 on, each version is given as the editor keeps it: a splice of the text it joined last (now and then the version itself).
  for (const [seed, spliced] of [[1, false], [2, false], [3, false], [4, false], [5, false], [6, false], [7, true], [8, true]] as const) {
    it(`after each of 150 random edits (seed ${seed}${spliced ? ', each version a splice of an older text' : ''})`, () => {
      const random = seededRandom(seed);
      let text = generateVariedAgentConfig(40, seed);
      let base = text;
      const incremental = new IncrementalAgentConfig();
      const owner = {};
      let composed = 0;
      let lastComposed = text;
      for (let step = 0; step < 150; step++) {
        text = randomEdit(text, random);
        if (spliced && random() < 0.15) base = text;
        assertSameAsWhole(incremental, text, owner, `after edit ${step} (seed ${seed})`, spliced ? splicedOn(base, text) : text);
        if (incremental.incremental) {
          composed++;
          lastComposed = text;
        } else if (random() < 0.7) {
          // A user fixes what they broke: usually go back to the last text that composed.
          text = lastComposed;
        }
      }
      // The test proves something only if most versions went through the incremental path.
      assert.ok(composed > 50, `only ${composed} of 150 versions were composed from entries`);
    });
  }

  // docs/gitlab-behaviour.md#top-level-keys-and-list-limits
  it('across the 500-entry limit: entries beyond it get no rules checks, the limit warning moves', () => {
    const random = seededRandom(9);
    let text = generateVariedAgentConfig(502, 9);
    const incremental = new IncrementalAgentConfig();
    const owner = {};
    for (let step = 0; step < 12; step++) {
      assertSameAsWhole(incremental, text, owner, `at step ${step}`);
      // Remove or duplicate an entry near the front: every later entry changes index.
      const lines = text.split('\n');
      const entryLines = lines.flatMap((l, i) => (l.startsWith('    - id: ') ? [i] : []));
      const target = entryLines[Math.floor(random() * 5)];
      lines.splice(target, 0, ...(random() < 0.5 ? [`    - id: acme/new-${step}`, '      default_namespace: Bad_NS'] : []));
      if (random() < 0.5) lines.splice(target, 1);
      text = lines.join('\n');
    }
  });

  it('with the gitlab target (rules are unknown keys) after random edits', () => {
    const random = seededRandom(21);
    let text = generateVariedAgentConfig(30, 21);
    const incremental = new IncrementalAgentConfig();
    const gitlab: ValidateOptions = { ...OPTIONS, target: 'gitlab' };
    for (let step = 0; step < 60; step++) {
      const edited = randomEdit(text, random);
      incremental.update(edited);
      assert.deepEqual(incremental.diagnostics(gitlab, 'gitlab'), validateAgentConfig(edited, gitlab), `after edit ${step}`);
      if (incremental.incremental) text = edited;
    }
  });

  it('when the settings change, cached checks are redone', () => {
    const text = generateVariedAgentConfig(20, 5);
    const incremental = new IncrementalAgentConfig();
    incremental.update(text);
    incremental.diagnostics({ ...OPTIONS, target: 'gitlab' }, 'gitlab');
    assert.deepEqual(incremental.diagnostics(OPTIONS, 'proposal'), validateAgentConfig(text, OPTIONS));
  });

  it('reuses the parse of untouched entries: one edit re-parses one entry', () => {
    const text = generateAgentConfig(200);
    const incremental = new IncrementalAgentConfig();
    const before = incremental.update(text);
    const edited = text.replace('default_namespace: service-100\n', 'default_namespace: service-100x\n');
    const after = incremental.update(edited);
    assert.ok(incremental.incremental);
    const items = (doc: typeof before) => (doc.doc!.getIn(['ci_access', 'projects']) as { items: unknown[] }).items;
    const [b, a] = [items(before), items(after)];
    const reused = a.filter((item, i) => item === b[i]).length;
    assert.equal(reused, 199, 'every entry but the edited one keeps its parsed node');
  });
});

describe('a text given as a splice of an older version (as the editor keeps it)', () => {
  it('edits inside entries join nothing: the model, its diagnostics and a completion read only around the edit', () => {
    class CountedJoins extends SplicedText {
      joins = 0;
      override toString(): string {
        this.joins++;
        return super.toString();
      }
    }
    const text = generateAgentConfig(300);
    const incremental = new IncrementalAgentConfig();
    incremental.update(text);
    incremental.diagnostics(OPTIONS, OPTIONS);
    const at = text.indexOf('\n', text.indexOf('default_namespace:', text.length >> 1));
    let edited = text;
    for (let step = 0; step < 20; step++) {
      // Typing at the end of a namespace, and deleting: the editor's text stays a splice of `text`.
      edited = step % 3 === 2 ? edited.slice(0, at) + edited.slice(at + 1) : edited.slice(0, at) + 'x' + edited.slice(at);
      const source = new CountedJoins(text, at, edited.slice(at, edited.length - (text.length - at)), text.length - at);
      const model = incremental.update(source);
      assert.deepEqual(incremental.diagnostics(OPTIONS, OPTIONS), validateAgentConfig(edited, OPTIONS), `diagnostics after edit ${step}`);
      const context = agentConfigContext(model.index.source, model.index, model.doc, at);
      assert.equal(context?.kind, 'value', `completion context after edit ${step}`);
      assert.equal(source.joins, 0, `the text was joined after edit ${step}`);
      assert.equal(model.text, edited);
    }
  });
});

describe('entries that keep their place or only move', () => {
  it('an edit before many entries moves their nodes when they are read, by all the edits since', () => {
    const text = generateAgentConfig(300);
    const incremental = new IncrementalAgentConfig();
    incremental.update(text);
    // Five edits near the top: no one reads the entries below in between.
    let edited = text;
    for (let k = 0; k < 5; k++) edited = edited.replace(`service-${k}\n`, `service-${k}-longer\n`);
    for (const version of [text.replace('service-0\n', 'service-0-longer\n'), edited]) incremental.update(version);
    const model = incremental.update(edited);
    assert.ok(incremental.incremental);
    assert.deepEqual(nodeRanges(model.doc!.contents), nodeRanges(parseYaml(edited).doc!.contents));
  });

  it('two entries swapped by one edit keep their parsed nodes (found again by text)', () => {
    const text = generateAgentConfig(50);
    const lines = text.split('\n');
    const entryStarts = lines.flatMap((l, i) => (l.startsWith('    - id: ') ? [i] : []));
    const [a, b, c] = [entryStarts[10], entryStarts[11], entryStarts[12]];
    const swapped = [...lines.slice(0, a), ...lines.slice(b, c), ...lines.slice(a, b), ...lines.slice(c)].join('\n');
    const incremental = new IncrementalAgentConfig();
    const before = incremental.update(text);
    const after = incremental.update(swapped);
    assert.ok(incremental.incremental);
    const items = (doc: typeof before) => (doc.doc!.getIn(['ci_access', 'projects']) as { items: unknown[] }).items;
    assert.equal(items(after)[10], items(before)[11]);
    assert.equal(items(after)[11], items(before)[10]);
    assert.deepEqual(incremental.diagnostics(OPTIONS, {}), validateAgentConfig(swapped, OPTIONS));
  });
});

describe('layout scan', () => {
  it('finds the entries of each list, items indented or not', () => {
    const layout = scanLayout(['ci_access:', '  projects:', '    - id: a', '      x: 1', '    # c', '    - id: b', '  groups:', '  - id: g', 'user_access:', '  projects:', '  - id: u', ''].join('\n'));
    assert.deepEqual(
      layout?.lists.map((l) => [l.path.join('.'), l.entries.map((e) => e.line)]),
      [
        ['ci_access.projects', [2, 5]],
        ['ci_access.groups', [7]],
        ['user_access.projects', [10]],
      ],
    );
  });

  for (const [why, text] of [
    ['several documents', 'ci_access:\n  projects:\n    - id: a\n---\nci_access: {}\n'],
    ['a tab in the indentation', 'ci_access:\n  projects:\n\t- id: a\n'],
    ['a section given twice', 'ci_access:\n  projects:\n    - id: a\nci_access:\n  groups: []\n'],
    ['indentation between the key and the items', 'ci_access:\n  projects:\n    - id: a\n   x: 1\n'],
  ] as const) {
    it(`gives up on ${why}`, () => assert.equal(scanLayout(text), null));
  }
});

describe('what an edit derives from the previous version equals a scan of the whole text', () => {
  for (const seed of [11, 12, 13]) {
    it(`the layout, after each of 300 random edits (seed ${seed})`, () => {
      const random = seededRandom(seed);
      let text = generateVariedAgentConfig(30, seed);
      let layout = scanLayout(text)!;
      let derived = 0;
      for (let step = 0; step < 300; step++) {
        const edited = randomEdit(text, random);
        const rescanned = rescanLayout({ text, layout }, edited, change(text, edited))?.layout ?? null;
        // The same from texts given as splices of each other (as the editor keeps them).
        assert.deepEqual(rescanLayout({ text: splicedOn(edited, text), layout }, splicedOn(text, edited), change(text, edited))?.layout ?? null, rescanned, `spliced layout after edit ${step}`);
        const whole = scanLayout(edited);
        if (rescanned) {
          derived++;
          assert.deepEqual(rescanned, whole, `layout differs after edit ${step} (seed ${seed})`);
        }
        // As in the tests above, a user mostly fixes what they broke: go back to the last plain text.
        if (whole?.lists.length && (rescanned || random() < 0.1)) [text, layout] = [edited, whole];
      }
      assert.ok(derived > 100, `only ${derived} of 300 layouts were derived from the previous one`);
    });
  }

  it('the line index and the UTF-8 length, after each of 400 random edits (line breaks, multi-byte and astral characters)', () => {
    const random = seededRandom(17);
    const pieces = ['a', '\n', 'é', '😀', '\n\n', 'xyz', '€\n', '\r\n', '\r'];
    let text = 'ci_access:\n  projects:\n    - id: a/é😀\n';
    let index = new TextIndex(text);
    for (let step = 0; step < 400; step++) {
      const at = Math.floor(random() * (text.length + 1));
      const edited = random() < 0.6 ? text.slice(0, at) + pieces[Math.floor(random() * pieces.length)] + text.slice(at) : text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 3));
      const derived = TextIndex.edited(index, random() < 0.5 ? edited : splicedOn(text, edited), change(text, edited));
      const whole = new TextIndex(edited);
      assert.equal(derived.text, edited, `text after edit ${step}`);
      assert.equal(derived.lineCount, whole.lineCount, `line count after edit ${step}`);
      assert.equal(derived.utf8Length, Buffer.byteLength(edited, 'utf8'), `UTF-8 length after edit ${step}`);
      for (let offset = 0; offset <= edited.length; offset++) assert.deepEqual(derived.positionAt(offset), whole.positionAt(offset), `position of ${offset} after edit ${step}`);
      [text, index] = [edited, derived];
    }
  });

  it('the line index after 3,000 keystrokes typed at a cursor (shared line starts shifted in place), every position, offset and line end', () => {
    const random = seededRandom(23);
    let text = generateAgentConfig(30);
    let index = new TextIndex(text);
    let cursor = text.indexOf('default_namespace') + 20;
    let shared = 0;
    const startsOf = (i: TextIndex) => (i as unknown as { starts: Int32Array | undefined }).starts;
    for (let step = 0; step < 3000; step++) {
      // Mostly characters typed or deleted at the cursor; now and then the cursor moves or a line break is typed.
      if (random() < 0.05) cursor = Math.floor(random() * (text.length + 1));
      const roll = random();
      const edited = roll < 0.55 ? text.slice(0, cursor) + 'xé😀'[Math.floor(random() * 3)] + text.slice(cursor) : roll < 0.97 ? text.slice(0, Math.max(0, cursor - 1)) + text.slice(cursor) : text.slice(0, cursor) + '\n' + text.slice(cursor);
      cursor = Math.max(0, Math.min(edited.length, cursor + edited.length - text.length));
      const derived = TextIndex.edited(index, random() < 0.5 ? edited : splicedOn(text, edited), change(text, edited));
      if (startsOf(derived) === startsOf(index)) shared++;
      if (step % 10 === 0 || step > 2900) {
        const whole = new TextIndex(edited);
        assert.equal(derived.lineCount, whole.lineCount, `line count after edit ${step}`);
        for (let offset = 0; offset <= edited.length; offset++) assert.deepEqual(derived.positionAt(offset), whole.positionAt(offset), `position of ${offset} after edit ${step}`);
        for (let line = 0; line < whole.lineCount; line++) {
          assert.equal(derived.lineEnd(line), whole.lineEnd(line), `end of line ${line} after edit ${step}`);
          assert.equal(derived.offsetAt({ line, character: 5 }), whole.offsetAt({ line, character: 5 }), `offset in line ${line} after edit ${step}`);
        }
      }
      [text, index] = [edited, derived];
    }
    assert.ok(shared > 2000, `only ${shared} of 3,000 indexes shared their predecessor's line starts`);
  });
});
