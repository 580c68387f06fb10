import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { checkAgentFile, classifyPath, decodeAgentFile, wholeFileModel, type EngineDiagnostic, type ProjectSettings } from '../../engine/api';
import { BatchFiles, type ListedFiles } from '../batchFiles';
import { FAIL_ON_USAGE, failOnFromArg, failsRun } from '../failOn';
import type { CliCommand, CliIo } from '../io';
import { parseArgs, UsageError } from '../args';
import { PROJECT_SETTING_HELP, PROJECT_SETTING_OPTIONS, PROJECT_SETTING_USAGE, projectSettingsFromArgs, settingsForFile } from '../projectSettings';
import { isReportFormat, renderReport, reportSummary, REPORT_FORMATS, type FileReport } from '../reports';
import { workingOn } from '../run';
import { AGENTCFG_VERSION } from '../version';

const USAGE = `agentcfg validate <paths...> [--format ${REPORT_FORMATS.join('|')}] ${FAIL_ON_USAGE} ${PROJECT_SETTING_USAGE}`;

/**
 * `agentcfg validate`: the editor's checks from the command line, through the same engine call
 * (engine/api `checkAgentFile`) with the same settings. Exit 1 when any error is found (with
 * `--fail-on warning`, any warning too), 0 otherwise.
 */
export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Check agent configurations and environment templates.',
  usage: USAGE,
  options: [
    { option: '<paths...>', says: 'files, or directories searched for .gitlab/agents/*/config.yaml and environment templates' },
    { option: `--format ${REPORT_FORMATS.join('|')}`, says: 'text for people (default), json for scripts, sarif for code scanning, codequality for GitLab merge requests' },
    { option: '--fail-on error|warning', says: 'exit 1 on errors (default), or on warnings too' },
    ...PROJECT_SETTING_HELP,
  ],
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['format', 'fail-on', ...PROJECT_SETTING_OPTIONS.values], flags: [...PROJECT_SETTING_OPTIONS.flags] });
    const format = args.values.format ?? 'text';
    if (!isReportFormat(format)) throw new UsageError(`--format must be ${REPORT_FORMATS.slice(0, -1).join(', ')} or ${REPORT_FORMATS.at(-1)}, got "${format}"`);
    const failOn = failOnFromArg(args.values['fail-on']);
    const settings = projectSettingsFromArgs(args, io.cwd);
    if (!args.positional.length) throw new UsageError('name at least one file or directory');

    const { files, listed } = expandPaths(args.positional, io);
    const results = await validateFiles(files, listed, settings, io);

    io.out(renderReport(format, results, { toolVersion: AGENTCFG_VERSION }));
    const summary = reportSummary(format, results);
    if (summary) io.err(`\n${summary}\n`);
    return failsRun(results, failOn) ? 1 : 0;
  },
};

/**
 * Checks the files in their order. What a batch shares is set up once: the settings per repository
 * (the git remote is looked up once per directory), and the files of the batch (batchFiles.ts): a
 * config's template and a template's config come from what the batch has read and parsed.
 */
async function validateFiles(files: readonly string[], listed: ListedFiles, settings: ProjectSettings, io: CliIo): Promise<FileReport[]> {
  const absolutes = files.map((file) => path.resolve(io.cwd, file));
  const batch = new BatchFiles(absolutes, listed);
  const settingsOf = settingsByDirectory(settings, listed, io.cwd);
  const results: FileReport[] = [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    const absolute = absolutes[i]!;
    // A bug met in one file names that file (exit 3), not only the command line that listed a directory.
    results.push(await workingOn(file, async () => checkFile(file, absolute, i, batch, settingsOf(absolute))));
  }
  return results;
}

/** One file of the batch: its problems, with its text for the report (Code Quality fingerprints hash the reported line: reports/fingerprint.ts). */
function checkFile(file: string, absolute: string, index: number, batch: BatchFiles, settings: ProjectSettings): FileReport {
  const read = batch.take(absolute);
  if ('error' in read) return { file, diagnostics: [fileError(`cannot read the file: ${read.error}`)] };
  // Decoded once, for the checks and the report; a config's model is parsed here rather than
  // inside checkAgentFile, so that its template, checked next, reuses it.
  const decoded = decodeAgentFile(read.bytes);
  const model = classifyPath(absolute).kind === 'environmentTemplate' ? undefined : wholeFileModel(decoded.text);
  const diagnostics = checkAgentFile({ path: absolute, content: decoded }, settings, batch.siblingsOf(absolute), model);
  batch.checked(absolute, index, decoded.text, model ?? null);
  return { file, text: decoded.text, diagnostics };
}

/**
 * `settingsForFile` once per directory: the git remote of a directory without `.git` is its
 * parent's. A directory the listing went through has no `.git` unless the listing saw one (the
 * disk is not asked again for each of a batch's thousand agent directories).
 */
function settingsByDirectory(settings: ProjectSettings, listed: ListedFiles, cwd: string): (file: string) => ProjectSettings {
  const byDirectory = new Map<string, ProjectSettings>();
  const of = (directory: string): ProjectSettings => {
    let found = byDirectory.get(directory);
    if (found) return found;
    const parent = path.dirname(directory);
    // `directory` is normalized (the dirname of a resolved path): joined without normalizing it again (path.join would, for each of a batch's directories).
    const git = (directory.endsWith(path.sep) ? directory : directory + path.sep) + '.git';
    found = parent === directory || (!listed.isAbsent(git) && existsSync(git)) ? settingsForFile(settings, path.join(directory, 'file'), cwd) : of(parent);
    byDirectory.set(directory, found);
    return found;
  };
  return (file) => of(path.dirname(file));
}

/**
 * Files are taken as given; directories are searched for agent configurations and templates. The
 * listing also tells which files exist in the directories it went through (for the siblings).
 * Synchronous, as the reads of the batch are: the recursive listing of `fs/promises` waits on the
 * thread pool for each directory, and a batch of a thousand agent directories sits idle meanwhile.
 */
function expandPaths(inputs: readonly string[], io: CliIo): { files: string[]; listed: ListedFiles } {
  const files: string[] = [];
  const listing: Listing = { directories: new Set(), present: new Set() };
  for (const input of inputs) {
    const absolute = path.resolve(io.cwd, input);
    const info = statOrNull(absolute);
    if (!info?.isDirectory()) {
      files.push(input);
      continue;
    }
    const found: string[] = [];
    listDirectory(absolute, '', listing, found);
    // What `path.join(input, entry)` gives, without normalizing the whole path again for each file.
    const normalized = path.normalize(input);
    const shown = normalized === '.' || normalized === `.${path.sep}` ? '' : normalized.endsWith(path.sep) ? normalized : normalized + path.sep;
    for (const entry of found.sort()) {
      if (classifyPath(absolute + path.sep + entry).kind !== 'other') files.push(shown + entry);
    }
  }
  return { files, listed: { isAbsent: (absolute) => absentFromListing(absolute, listing.present, listing.directories) } };
}

interface Listing {
  /** Directories listed whole (a symbolic link to a directory is not gone through). */
  readonly directories: Set<string>;
  /** Every entry of those, by absolute path. */
  readonly present: Set<string>;
}

/**
 * Lists `directory` (absolute) and the directories under it into `listing`, and the paths of their
 * entries relative to the top one (`relative`, empty or ending with a separator) into `found`.
 * A `node_modules` or `.git` directory is seen but not gone into: no agent file is checked there,
 * and a repository's `.git` alone can hold thousands of entries.
 */
function listDirectory(directory: string, relative: string, listing: Listing, found: string[]): void {
  listing.directories.add(directory);
  const prefix = directory.endsWith(path.sep) ? directory : directory + path.sep;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = prefix + entry.name;
    listing.present.add(full);
    found.push(relative + entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== '.git') listDirectory(full, relative + entry.name + path.sep, listing, found);
  }
}

/** What is at `absolute`, or null when nothing can be seen there (missing, or not accessible: the file is then reported unreadable). */
function statOrNull(absolute: string) {
  try {
    return statSync(absolute, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether the listing shows that `absolute` does not exist: the path, or the first of its missing
 * ancestors (an agent's missing `environment_templates/`), is not among the entries of a directory
 * listed whole. Anything else (a path under a symbolic link, outside the listing) is for the disk to say.
 */
function absentFromListing(absolute: string, present: ReadonlySet<string>, directories: ReadonlySet<string>): boolean {
  for (let at = absolute; !present.has(at); ) {
    const parent = path.dirname(at);
    if (directories.has(parent)) return true;
    if (parent === at) return false;
    at = parent;
  }
  return false;
}

function fileError(message: string): EngineDiagnostic {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, severity: 'error', code: 'file.unreadable', message };
}
