import { readFile, readdir, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { shownDiagnostics, type EngineDiagnostic } from '../../engine/diagnostics';
import { agentDirectoryOf, classifyPath } from '../../engine/files';
import { checkAgentFile, NO_SIBLINGS, siblingsFrom, type AgentSiblings, type ProjectSettings } from '../../engine/project';
import type { CliCommand, CliIo } from '../io';
import { parseArgs, UsageError } from '../args';
import { PROJECT_SETTING_OPTIONS, PROJECT_SETTING_USAGE, projectSettingsFromArgs, settingsForFile } from '../projectSettings';
import { isReportFormat, renderReport, REPORT_FORMATS, type FileReport } from '../reports';
import { workingOn } from '../run';
import { AGENTCFG_VERSION } from '../version';

const USAGE = `agentcfg validate <paths...> [--format ${REPORT_FORMATS.join('|')}] ${PROJECT_SETTING_USAGE}`;

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
    if (!isReportFormat(format)) throw new UsageError(`--format must be ${REPORT_FORMATS.slice(0, -1).join(', ')} or ${REPORT_FORMATS.at(-1)}, got "${format}"`);
    const settings = projectSettingsFromArgs(args, io.cwd);
    if (!args.positional.length) throw new UsageError('name at least one file or directory');

    const files = await expandPaths(args.positional, io);
    const results: FileReport[] = [];
    // A bug met in one file names that file (exit 3), not only the command line that listed a directory.
    for (const file of files) results.push(await workingOn(file, () => validateFile(file, settings, io)));

    io.out(renderReport(format, results, { toolVersion: AGENTCFG_VERSION }));
    return results.some((r) => shownDiagnostics(r.diagnostics).some((d) => d.severity === 'error')) ? 1 : 0;
  },
};

async function validateFile(file: string, settings: ProjectSettings, io: CliIo): Promise<FileReport> {
  const absolute = path.resolve(io.cwd, file);
  let bytes: Uint8Array;
  try {
    bytes = await readFile(absolute);
  } catch (err) {
    return { file, diagnostics: [fileError(`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)] };
  }
  // The text goes with the report: Code Quality fingerprints hash the reported line (reports/fingerprint.ts).
  return { file, text: Buffer.from(bytes).toString('utf8'), diagnostics: checkAgentFile({ path: absolute, content: bytes }, settingsForFile(settings, absolute), siblingsOnDisk(absolute)) };
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
