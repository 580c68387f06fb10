import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { DEFAULT_PROJECT_SETTINGS, GITLAB_VERSIONS, isGitlabVersion, isSecurityLintCode, NEWEST_GITLAB_VERSION, readProjectSettings, SECURITY_LINTS, type ProjectSettings } from '../engine/api';
import type { CliOption } from './io';
import { projectPathOf } from '../repository/projectOfFile';
import { UsageError, type ArgsSpec, type ParsedArgs } from './args';
import { choiceOption } from './options';

/** The options every command that checks or simulates takes, so it answers as the editor does with the same settings. */
export const PROJECT_SETTING_OPTIONS = {
  values: ['settings', 'target', 'gitlab-version', 'disable-lint', 'default-branch', 'no-rule-match', 'overlong-namespace', 'agent-project'],
  flags: ['no-preset-scenarios'],
} as const satisfies ArgsSpec;

export const PROJECT_SETTING_USAGE = '[--settings <.vscode/settings.json>] [--target proposal|gitlab] [--gitlab-version <16.0…19.5>] [--disable-lint <security.code>[,<code>...]] [--default-branch <b>] [--no-preset-scenarios] [--no-rule-match deny|allow] [--overlong-namespace error|truncate] [--agent-project <full/path>]';

/** What each project setting option does (`<command> --help`), in the order of the usage. */
export const PROJECT_SETTING_HELP: readonly CliOption[] = [
  { option: '--settings <file>', says: 'read the gitlabAgentConfig.* settings of a VS Code settings file (the flags below override them)' },
  { option: '--target proposal|gitlab', says: `gitlab: check as GitLab reads the file; proposal: also accept the proposed ci_access rules design (default: ${DEFAULT_PROJECT_SETTINGS.target})` },
  { option: `--gitlab-version <${GITLAB_VERSIONS[0]}…${NEWEST_GITLAB_VERSION}>`, says: `the GitLab release the files are checked for (default: ${NEWEST_GITLAB_VERSION}, the newest)` },
  { option: '--disable-lint <code>[,<code>...]', says: 'silence these security lints for every file' },
  { option: '--default-branch <b>', says: "the project's default branch, for the built-in scenarios (default: main)" },
  { option: '--no-preset-scenarios', says: 'check rules and namespaces only for the scenarios of the settings file' },
  { option: '--no-rule-match deny|allow', says: 'what the rules design does when an entry has rules and none matches' },
  { option: '--overlong-namespace error|truncate', says: 'what happens to a resolved namespace longer than 63 characters' },
  { option: '--agent-project <full/path>', says: "the path of the agent's configuration project (default: read from the git remote)" },
];

const SECTION = 'gitlabAgentConfig';

/**
 * The settings from the command line: those of a VS Code settings file (`--settings`, JSON with
 * comments, the `gitlabAgentConfig.*` keys the editor reads), then each flag over them. Checked
 * before any file is read: a bad value is a usage error.
 */
export function projectSettingsFromArgs(args: ParsedArgs, cwd: string): ProjectSettings {
  const raw: Record<string, unknown> = args.values.settings === undefined ? {} : readSettingsFile(path.resolve(cwd, args.values.settings), args.values.settings);
  const target = choiceOption(args, 'target', ['proposal', 'gitlab']);
  const noRuleMatch = choiceOption(args, 'no-rule-match', ['deny', 'allow']);
  const overlong = choiceOption(args, 'overlong-namespace', ['error', 'truncate']);
  const gitlabVersion = args.values['gitlab-version'];
  if (gitlabVersion !== undefined && !isGitlabVersion(gitlabVersion)) {
    throw new UsageError(`--gitlab-version must be a GitLab release from ${GITLAB_VERSIONS[0]} to ${NEWEST_GITLAB_VERSION} (major.minor, such as 17.11), got "${gitlabVersion}"`);
  }
  // The editor falls back to the newest release on a value outside its list; checking another
  // release than the file names would pass or fail files silently, so here it is a usage error.
  if (gitlabVersion === undefined && raw.gitlabVersion !== undefined && !isGitlabVersion(raw.gitlabVersion)) {
    throw new UsageError(
      `--settings ${args.values.settings}: gitlabAgentConfig.gitlabVersion must be a GitLab release from ${GITLAB_VERSIONS[0]} to ${NEWEST_GITLAB_VERSION} (major.minor in quotes, such as "17.11"), got ${JSON.stringify(raw.gitlabVersion)}`,
    );
  }
  // A comma-separated list, as the commands take no repeated project options.
  const disabledLints = (args.values['disable-lint'] ?? '').split(',').map((code) => code.trim()).filter(Boolean);
  for (const code of disabledLints) {
    if (!isSecurityLintCode(code)) throw new UsageError(`--disable-lint takes a security lint code (${Object.keys(SECURITY_LINTS).join(', ')}), got "${code}"`);
  }
  const defaultBranch = args.values['default-branch'];
  if (defaultBranch !== undefined && !defaultBranch.trim()) throw new UsageError('--default-branch needs a branch name');
  return readProjectSettings({
    ...raw,
    ...(target ? { target } : {}),
    ...(gitlabVersion !== undefined ? { gitlabVersion } : {}),
    // Codes from a flag add to those of the settings file.
    ...(disabledLints.length ? { disabledLints: [...(Array.isArray(raw.disabledLints) ? (raw.disabledLints as unknown[]) : []), ...disabledLints] } : {}),
    ...(noRuleMatch ? { noRuleMatch } : {}),
    ...(overlong ? { overlongNamespace: overlong } : {}),
    ...(defaultBranch !== undefined ? { defaultBranch } : {}),
    ...(args.flags.has('no-preset-scenarios') ? { usePresetScenarios: false } : {}),
    ...(args.values['agent-project'] !== undefined ? { configProjectPath: args.values['agent-project'] } : {}),
  });
}

/**
 * The settings for one file: the agent configuration project of the file's repository, as the
 * editor finds it (workspace/projectOfFile.ts), with the working directory as the opened folder.
 */
export function settingsForFile(settings: ProjectSettings, file: string, cwd = process.cwd()): ProjectSettings {
  const configProjectPath = projectPathOf(file, settings.configProjectPath, [cwd]);
  return configProjectPath !== settings.configProjectPath ? { ...settings, configProjectPath } : settings;
}

/** `gitlabAgentConfig.*` keys of a settings file, flat (`"gitlabAgentConfig.target"`) or nested (`"gitlabAgentConfig": {"target"}`). */
function readSettingsFile(file: string, shown: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --settings ${shown}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
  const errors: ParseError[] = [];
  const data: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length || typeof data !== 'object' || data === null || Array.isArray(data)) {
    const where = errors[0] ? ` (${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset})` : '';
    throw new UsageError(`--settings ${shown} is not a JSON object${where}`);
  }
  const object = data as Record<string, unknown>;
  const nested = object[SECTION];
  const out: Record<string, unknown> = typeof nested === 'object' && nested !== null ? { ...(nested as Record<string, unknown>) } : {};
  for (const [key, value] of Object.entries(object)) if (key.startsWith(`${SECTION}.`)) out[key.slice(SECTION.length + 1)] = value;
  return out;
}
