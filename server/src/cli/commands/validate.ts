import { readFile, readdir, stat } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
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

    const { files, listed } = await expandPaths(args.positional, io);
    const results = await validateFiles(files, listed, settings, io);

    io.out(renderReport(format, results, { toolVersion: AGENTCFG_VERSION }));
    return results.some((r) => shownDiagnostics(r.diagnostics).some((d) => d.severity === 'error')) ? 1 : 0;
  },
};

/** How many files are being read ahead of the one being checked (the reads overlap the checks). */
const READ_AHEAD = 16;

type Read = { readonly bytes: Uint8Array } | { readonly error: string };

/**
 * Checks the files in their order, reading up to READ_AHEAD files ahead while the checks run (a
 * batch is not idle on sequential reads). What a batch shares is set up once: the settings per
 * repository (the git remote is looked up once per directory), and the texts already read, which
 * answer the sibling an agent's other file asks for (a config's template, a template's config)
 * without reading it again; a sibling under a listed directory that the listing lacks is absent
 * without asking the disk.
 */
async function validateFiles(files: readonly string[], listed: ListedFiles, settings: ProjectSettings, io: CliIo): Promise<FileReport[]> {
  const absolutes = files.map((file) => path.resolve(io.cwd, file));
  const reads: Array<Promise<Read> | undefined> = [];
  /** Texts read in this batch, by absolute path, while a sibling may still ask for them (insertion order = file order). */
  const texts = new Map<string, { readonly text: string; readonly index: number }>();
  const settingsOf = settingsByDirectory(settings);
  /** Files of the batch whose bytes have arrived and that are not checked yet. */
  const arrived = new Map<string, Uint8Array>();
  const readSibling = (absolute: string): string | null => {
    const known = texts.get(absolute);
    if (known) return known.text;
    const bytes = arrived.get(absolute);
    if (bytes) return utf8(bytes);
    if (listed.isAbsent(absolute)) return null;
    try {
      return readFileSync(absolute, 'utf8');
    } catch {
      return null;
    }
  };
  let started = 0;
  const results: FileReport[] = [];
  for (let i = 0; i < files.length; i++) {
    for (; started < Math.min(files.length, i + READ_AHEAD); started++) reads[started] = readBytes(absolutes[started]!, arrived);
    const read = await reads[i]!;
    reads[i] = undefined;
    arrived.delete(absolutes[i]!);
    const file = files[i]!;
    const absolute = absolutes[i]!;
    // A bug met in one file names that file (exit 3), not only the command line that listed a directory.
    results.push(
      await workingOn(file, async () => {
        if ('error' in read) return { file, diagnostics: [fileError(`cannot read the file: ${read.error}`)] };
        // The text goes with the report: Code Quality fingerprints hash the reported line (reports/fingerprint.ts).
        const text = utf8(read.bytes);
        if (agentDirectoryOf(absolute)) texts.set(absolute, { text, index: i });
        return { file, text, diagnostics: checkAgentFile({ path: absolute, content: read.bytes }, settingsOf(absolute), siblingsOnDisk(absolute, readSibling)) };
      }),
    );
    // An agent's files are next to each other in a listing: older texts are not asked for again.
    for (const [key, entry] of texts) {
      if (entry.index >= i - READ_AHEAD) break;
      texts.delete(key);
    }
  }
  return results;
}

/** Reads a file; its bytes are also put in `arrived` as soon as they are there (a sibling may ask for them before their turn). */
function readBytes(absolute: string, arrived: Map<string, Uint8Array>): Promise<Read> {
  return readFile(absolute).then(
    (bytes) => {
      arrived.set(absolute, bytes);
      return { bytes };
    },
    (err: NodeJS.ErrnoException) => ({ error: err.code ?? String(err) }),
  );
}

function utf8(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** `settingsForFile` once per directory: the git remote of a directory without `.git` is its parent's. */
function settingsByDirectory(settings: ProjectSettings): (file: string) => ProjectSettings {
  if (settings.configProjectPath) return () => settings;
  const byDirectory = new Map<string, ProjectSettings>();
  const of = (directory: string): ProjectSettings => {
    let found = byDirectory.get(directory);
    if (found) return found;
    const parent = path.dirname(directory);
    found = parent === directory || existsSync(path.join(directory, '.git')) ? settingsForFile(settings, path.join(directory, 'file')) : of(parent);
    byDirectory.set(directory, found);
    return found;
  };
  return (file) => of(path.dirname(file));
}

/** The sibling of an agent's file, read from its agent directory when the engine asks for it. */
function siblingsOnDisk(file: string, read: (absolute: string) => string | null): AgentSiblings {
  const agent = agentDirectoryOf(file);
  if (!agent) return NO_SIBLINGS;
  return siblingsFrom((inside) => read(path.resolve(agent.directory + inside)));
}

/** Files found by listing directories: a path under a listed directory that is not among them is absent. */
interface ListedFiles {
  isAbsent(absolute: string): boolean;
}

/**
 * Files are taken as given; directories are searched for agent configurations and templates. The
 * listing also tells which files exist in the directories it went through (for the siblings).
 */
async function expandPaths(inputs: readonly string[], io: CliIo): Promise<{ files: string[]; listed: ListedFiles }> {
  const files: string[] = [];
  /** Directories listed whole (a symbolic link to a directory is not gone through). */
  const directories = new Set<string>();
  const present = new Set<string>();
  for (const input of inputs) {
    const absolute = path.resolve(io.cwd, input);
    const info = await stat(absolute).catch(() => null);
    if (!info?.isDirectory()) {
      files.push(input);
      continue;
    }
    directories.add(absolute);
    const entries = await readdir(absolute, { recursive: true, withFileTypes: true });
    const found: string[] = [];
    for (const entry of entries) {
      const full = path.join(entry.parentPath, entry.name);
      present.add(full);
      if (entry.isDirectory()) directories.add(full);
      found.push(path.relative(absolute, full));
    }
    for (const entry of found.sort()) {
      if (entry.split(path.sep).includes('node_modules')) continue;
      if (classifyPath(path.join(absolute, entry)).kind !== 'other') files.push(path.join(input, entry));
    }
  }
  return { files, listed: { isAbsent: (absolute) => !present.has(absolute) && directories.has(path.dirname(absolute)) } };
}

function fileError(message: string): EngineDiagnostic {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 'error', code: 'file.unreadable', message };
}
