/**
 * Runs `agentcfg validate` in-process on one file of a throw-away agent directory and checks what
 * every validation must give, whatever the input: no exception, JSON output, and every diagnostic
 * on a position inside the document.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateCommand } from '../../../server/src/cli/commands/validate';
import type { Range } from '../../../server/src/engine/diagnostics';

export interface ValidateRun {
  readonly code: number;
  readonly diagnostics: { range: Range; severity: string; code: string; message: string }[];
  readonly stderr: string;
  readonly milliseconds: number;
}

/** A throw-away `.gitlab/agents/<agent>/` with the files of one agent. */
export class AgentDir {
  readonly root = mkdtempSync(path.join(os.tmpdir(), 'agentcfg-robustness-'));
  readonly agent = path.join(this.root, '.gitlab', 'agents', 'fuzz');

  constructor() {
    mkdirSync(path.join(this.agent, 'environment_templates'), { recursive: true });
  }

  write(file: 'config.yaml' | 'environment_templates/default.yaml', content: string | Buffer): string {
    const target = path.join(this.agent, file);
    writeFileSync(target, content);
    return target;
  }
}

/** `agentcfg validate --format json <file>`, in this process. */
export async function validateInProcess(file: string): Promise<ValidateRun> {
  let stdout = '';
  let stderr = '';
  const started = performance.now();
  const code = await validateCommand.run([file, '--format', 'json'], { cwd: '/', out: (t) => (stdout += t), err: (t) => (stderr += t), readStdin: async () => '' });
  const milliseconds = performance.now() - started;
  return { code, diagnostics: JSON.parse(stdout) as ValidateRun['diagnostics'], stderr, milliseconds };
}

/** Lines as LSP counts them (`\r\n`, `\n` and a lone `\r` end a line), with their lengths in UTF-16 units. */
function lineLengths(text: string): number[] {
  return text.split(/\r\n|\n|\r/).map((line) => line.length);
}

/** Every range starts no later than it ends and lies inside the text. */
export function assertInside(text: string, ranges: readonly Range[], context: string): void {
  const lengths = lineLengths(text);
  for (const range of ranges) {
    for (const p of [range.start, range.end]) {
      assert.ok(p.line >= 0 && p.line < lengths.length, `${context}: line ${p.line} outside 0..${lengths.length - 1} in ${JSON.stringify(range)}`);
      assert.ok(p.character >= 0 && p.character <= lengths[p.line], `${context}: character ${p.character} outside line ${p.line} (length ${lengths[p.line]})`);
    }
    const ordered = range.start.line < range.end.line || (range.start.line === range.end.line && range.start.character <= range.end.character);
    assert.ok(ordered, `${context}: range ends before it starts: ${JSON.stringify(range)}`);
  }
}
