import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isCompatibilityTarget, type CompatibilityTarget } from '../../engine/config/compatibilityTarget';
import { finalizeDiagnostics, partDiagnostics, wholeFileDiagnostics } from '../../engine/config/validateAgentConfig';
import { parseYaml } from '../../engine/config/yamlDocument';
import type { EngineDiagnostic } from '../../engine/diagnostics';
import { classifyPath } from '../../engine/files';
import { decodeUtf8, invalidUtf8Diagnostic } from '../../engine/text/utf8';
import { agentFilesOnDisk } from '../../engine/crossFile/agentFilesOnDisk';
import { isRenderable, validateEnvironmentTemplate } from '../../engine/template/diagnostics/validateEnvironmentTemplate';
import type { CliCommand, CliIo } from '../io';
import { parseArgs, UsageError } from '../args';

interface FileResult {
  readonly file: string;
  readonly diagnostics: readonly EngineDiagnostic[];
}

const USAGE = 'agentcfg validate <paths...> [--format text|json] [--target proposal|gitlab]';

/**
 * `agentcfg validate`: the editor's checks from the command line. Exit 1 when any error is found,
 * 0 otherwise (warnings do not fail a pipeline).
 */
export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Check agent configurations and environment templates.',
  usage: USAGE,
  async run(argv, io) {
    const args = parseArgs(argv, { values: ['format', 'target'], flags: [] });
    const format = args.values.format ?? 'text';
    if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, got "${format}"`);
    const target = args.values.target ?? 'proposal';
    if (!isCompatibilityTarget(target)) throw new UsageError(`--target must be proposal or gitlab, got "${target}"`);
    if (!args.positional.length) throw new UsageError('name at least one file or directory');

    const files = await expandPaths(args.positional, io);
    const results: FileResult[] = [];
    for (const file of files) results.push(await validateFile(file, target, io));

    if (format === 'json') io.out(JSON.stringify(results.flatMap(toJson), null, 2) + '\n');
    else io.out(results.flatMap(toText).join(''));
    return results.some((r) => r.diagnostics.some((d) => d.severity === 'error')) ? 1 : 0;
  },
};

async function validateFile(file: string, target: CompatibilityTarget, io: CliIo): Promise<FileResult> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path.resolve(io.cwd, file));
  } catch (err) {
    return { file, diagnostics: [fileError(`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`)] };
  }
  // Bytes that are not UTF-8 would pass as U+FFFD; GitLab rejects them, so they are reported.
  const decoded = decodeUtf8(bytes);
  const encoding = invalidUtf8Diagnostic(decoded, bytes);
  const diagnostics = finalizeDiagnostics([...(encoding ? [encoding] : []), ...(await checkText(file, decoded.text, target, io))]);
  // The encoding is the first thing to fix: never cut by the cap on the number of problems.
  if (encoding && !diagnostics.includes(encoding)) diagnostics.unshift(encoding);
  return { file, diagnostics };
}

/** Every problem of one file's text (not sorted or capped yet). */
async function checkText(file: string, text: string, target: CompatibilityTarget, io: CliIo): Promise<EngineDiagnostic[]> {
  const absolute = path.resolve(io.cwd, file);
  const kind = classifyPath(absolute);
  // Templates and configs are also checked against their sibling file (engine/crossFile), with the preset scenarios.
  if (kind.kind === 'environmentTemplate') {
    const own = validateEnvironmentTemplate(text, { templateName: kind.templateName });
    const together = kind.templateName === 'default' && isRenderable(own) ? (await agentFilesOnDisk(absolute, kind.agentName)).templateDiagnostics(text) : [];
    return [...own, ...together];
  }
  // One parse serves both the file's own checks and the cross-file ones.
  const parsed = parseYaml(text);
  if (kind.kind !== 'agentConfig') return [...partDiagnostics(parsed, { target }), ...wholeFileDiagnostics(parsed, { target })];
  const options = { target, agentName: kind.agentName };
  const together = (await agentFilesOnDisk(absolute, kind.agentName)).configDiagnostics(parsed);
  return [...partDiagnostics(parsed, options), ...wholeFileDiagnostics(parsed, options), ...together];
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
