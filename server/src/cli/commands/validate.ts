import { readFile, readdir, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EngineDiagnostic } from '../../engine/diagnostics';
import { agentDirectoryOf, classifyPath } from '../../engine/files';
import { checkAgentFile, NO_SIBLINGS, siblingsFrom, type AgentSiblings, type ProjectSettings } from '../../engine/project';
import type { CliCommand, CliIo } from '../io';
import { parseArgs, UsageError } from '../args';
import { PROJECT_SETTING_OPTIONS, PROJECT_SETTING_USAGE, projectSettingsFromArgs, settingsForFile } from '../projectSettings';

interface FileResult {
  readonly file: string;
  readonly diagnostics: readonly EngineDiagnostic[];
}

const USAGE = `agentcfg validate <paths...> [--format text|json] ${PROJECT_SETTING_USAGE}`;

/**
 * `agentcfg validate`: the editor's checks from the command line, through the same engine call
 * (engine/project `checkAgentFile`) with the same settings. Exit 1 when any error is found, 0
 * otherwise (warnings do not fail a pipeline).
 */
export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Check agent configurations and environment templates.',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['format', ...PROJECT_SETTING_OPTIONS.values], flags: [...PROJECT_SETTING_OPTIONS.flags] });
    const format = args.values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, got "${format}"`);
    const settings = projectSettingsFromArgs(args, io.cwd);
    if (!args.positional.length) throw new UsageError('name at least one file or directory');

    const files = await expandPaths(args.positional, io);
    const results: FileResult[] = [];
    for (const file of files) results.push(await validateFile(file, settings, io));

    if (format === 'json') io.out(JSON.stringify(results.flatMap(toJson), null, 2) + '\n');
    else io.out(results.flatMap(toText).join(''));
    return results.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
  },
};

async function validateFile(file: string, settings: ProjectSettings, io: CliIo): Promise<FileResult> {
  const absolute = path.resolve(io.cwd, file);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(absolute);
  } catch (err) {
    return { file, diagnostics: [fileError(`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)] };
  }
  return { file, diagnostics: checkAgentFile({ path: absolute, content: bytes }, settingsForFile(settings, absolute), siblingsOnDisk(absolute)) };
}

/** The sibling of an agent's file, read from its agent directory when the engine asks for it. */
function siblingsOnDisk(file: string): AgentSiblings {
  const agent = agentDirectoryOf(file);
  if (!agent) return NO_SIBLINGS;
  return siblingsFrom((inside) => {
    try {
      return readFileSync(agent.directory + inside, 'utf8');
    } catch {
      return null;
    }
  });
}

/** Files are taken as given; directories are searched for agent configurations and templates. */
async function expandPaths(inputs: readonly string[], io: CliIo): Promise<string[]> {
  const files: string[] = [];
  for (const input of inputs) {
    const absolute = path.resolve(io.cwd, input);
    const info = await stat(absolute).catch(() => null);
    if (!info?.isDirectory()) {
      files.push(input);
      continue;
    }
    const entries = await readdir(absolute, { recursive: true });
    for (const entry of entries.map(String).sort()) {
      if (entry.split(path.sep).includes('node_modules')) continue;
      if (classifyPath(path.join(absolute, entry)).kind !== 'other') files.push(path.join(input, entry));
    }
  }
  return files;
}

function fileError(message: string): EngineDiagnostic {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 'error', code: 'file.unreadable', message };
}

function toJson(result: FileResult) {
  return result.diagnostics.map((d) => ({ file: result.file, range: d.range, severity: d.severity, code: d.code, message: d.message }));
}

/** `file:line:col: severity: message [code]`, 1-based as compilers print them. */
function toText(result: FileResult): string[] {
  return result.diagnostics.map((d) => `${result.file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message} [${d.code}]\n`);
}
