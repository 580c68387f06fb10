// Every diagnostic code the engine can emit, with the quick fix the editor offers for it or the
// reason it has none. The codes are read from the engine's source when the test runs, so a new code
// fails here until someone decides about its fix; the fixes are checked against the two places that
// offer them (server/src/lsp/codeActions.ts and server/src/engine/fixes/quickFixes.ts).
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { agentConfigSchemaFor } from "../../server/src/engine/config/versionedSchema";
import { GITLAB_VERSIONS } from "../../server/src/engine/gitlab/gitlabVersions";
import { environmentTemplateSchema } from "../../server/src/engine/template/diagnostics/templateSchema";

const root = path.resolve(import.meta.dirname, "..", "..");
const ENGINE = "server/src/engine";
const SCHEMA_DIAGNOSTICS = `${ENGINE}/config/schemaDiagnostics.ts`;
const CODE_ACTIONS = "server/src/lsp/codeActions.ts";
const QUICK_FIXES = `${ENGINE}/fixes/quickFixes.ts`;

type Entry = { fix: string } | { none: string };

/** A reason that starts with this names the one obvious fix nobody has written yet. */
const TODO = "TODO: ";

const SILENCE = {
  fix: "add a comment above the line that silences this warning there",
};

const FIXES: Record<string, Entry> = {
  "authorization.crossTopLevel": {
    none: "Whether the entry should count depends on the GitLab release and on an administrator setting, not on anything written wrong in the file.",
  },
  "authorization.crossTopLevelSetting": {
    none: "This is a note: only an administrator setting decides whether the entry counts, and the file is right as it is.",
  },
  "authorization.instanceSetting": {
    none: "This is a note: only an administrator setting decides whether the entry counts, and the file is right as it is.",
  },

  "config.agentName": {
    none: "The agent's name is the name of its folder, and renaming a folder is not an edit of this file.",
  },
  "config.duplicateId": {
    none: `${TODO}remove the earlier entry with this id, which GitLab ignores`,
  },
  "config.duplicateImagePullSecret": {
    none: "The repeated name may be a copy to delete or a different secret to rename, and only you know which.",
  },
  "config.empty": {
    none: "An empty file is valid; what it should authorize is yours to write.",
  },
  "config.entryLimit": {
    none: "Which entries to drop, or to replace by a group, is your choice.",
  },
  "config.imagePullSecretNamespace": {
    fix: "change the namespace to the shared namespace",
  },
  "config.tooLarge": {
    none: "Making the file smaller means choosing what to leave out.",
  },
  "config.tooManyProblems": {
    none: "This only counts the problems not shown; it goes away as you fix the ones that are.",
  },
  "config.workspaceLifetime": {
    none: "Either lifetime may be the one to lower, and by how much is your choice.",
  },

  "crossFile.invalidNamespace": {
    none: "The namespace is made by the template from values that differ between jobs, so no single edit is known to fix it.",
  },
  "crossFile.renderFailed": {
    none: "The template fails because of its own logic, which can be corrected in many ways.",
  },
  "crossFile.renderStopped": {
    none: "The template took too long to render for every job; nothing in it is known to be wrong.",
  },
  "crossFile.resourceManagementNeedsCiJob": { fix: "set access_as to ci_job" },
  "crossFile.templateUnused": {
    none: "Whether to turn on resource management or to delete the template is your choice.",
  },

  "expr.bracedVariable": { fix: "write the variable as $NAME, without braces" },
  "expr.missingDollar": { fix: 'add the missing "$" before the variable name' },
  "expr.notInVersion": {
    none: "The negation can be written with != or !~ in several ways, or the GitLab version chosen may be the thing to change.",
  },
  "expr.syntax": {
    none: "A broken expression could have meant many different things.",
  },
  "expr.unknownVariable": {
    fix: "change to the closest predefined variable, when one is close",
  },

  "file.ignoredName": { fix: "rename the file to config.yaml or default.yaml" },
  "file.invalidUtf8": {
    none: "The file must be saved again as UTF-8, and the characters it was meant to hold cannot be known.",
  },

  "namespace.invalid": {
    none: "A namespace name can be corrected in many ways, and the name is yours to choose.",
  },
  "namespace.invalidForAll": {
    none: "The namespace is made from variables that differ between jobs, so no single edit is known to fix it.",
  },
  "namespace.invalidForSome": {
    none: "The namespace is made from variables that differ between jobs, so no single edit is known to fix it.",
  },

  "pipeline.agentDenied": {
    none: "The job needs access granted in the agent's configuration, another file, and how to grant it is your choice.",
  },
  "pipeline.agentUnknown": {
    none: `${TODO}change to the agent name it suggests, when one is close`,
  },
  "pipeline.childNotResolved": {
    none: "This is a note: the child pipeline's file is not in this workspace, and nothing in this file is wrong.",
  },
  "pipeline.environmentAction": {
    none: `${TODO}change to the closest allowed action`,
  },
  "pipeline.environmentName": {
    none: "Only you know which environment the job deploys to.",
  },
  "pipeline.environmentShape": {
    none: "The environment is written in the wrong form, and the name it was meant to have cannot be guessed.",
  },
  "pipeline.extendsInvalid": {
    none: "Whether to correct the job it extends or to stop extending it is your choice.",
  },
  "pipeline.extendsLoop": {
    none: "Which link of the circle to break is your choice.",
  },
  "pipeline.extendsShape": {
    none: "The job names it was meant to list cannot be guessed from a value of the wrong form.",
  },
  "pipeline.extendsTooDeep": {
    none: "Shortening the chain means choosing which levels to merge.",
  },
  "pipeline.extendsUnknown": {
    none: "The job may be misspelt or defined in a file not read here, and which one is not known.",
  },
  "pipeline.includeExtension": {
    none: "The included file itself would need renaming too, and only you know the name it should have.",
  },
  "pipeline.includeLimit": {
    none: "Which includes to merge or drop is your choice.",
  },
  "pipeline.includeLoop": {
    none: "Which include of the circle to remove is your choice.",
  },
  "pipeline.includeMissing": {
    none: "The path may be misspelt or the file not written yet, and which one is not known.",
  },
  "pipeline.includeNoMatch": {
    none: "This is a note: the pattern matches no file here, and it may match files added later.",
  },
  "pipeline.includeNotResolved": {
    none: "This is a note: the included file is not in this workspace, and nothing in this file is wrong.",
  },
  "pipeline.includeRules": {
    none: "This is a note on how the include is read here, and nothing in the file is wrong.",
  },
  "pipeline.includeShape": {
    none: "The include it was meant to be cannot be guessed from a value of the wrong form.",
  },
  "pipeline.includeUnknown": {
    none: "Which kind of include was meant (a local file, another project, a template...) cannot be guessed.",
  },
  "pipeline.internal": {
    none: "The checker itself failed, and nothing in the file is known to be wrong.",
  },
  "pipeline.invalidExpression": {
    none: "A broken expression could have meant many different things.",
  },
  "pipeline.invalidNamespace": {
    none: "The namespace is made from variables that differ between jobs, so no single edit is known to fix it.",
  },
  "pipeline.matrixTooLarge": {
    none: "Which combinations to drop from the matrix is your choice.",
  },
  "pipeline.notAJob": {
    none: "The key may be a misspelt keyword or a job whose body is missing, and which one is not known.",
  },
  "pipeline.notAMapping": {
    none: "The whole file is in the wrong form, and what it was meant to contain cannot be guessed.",
  },
  "pipeline.readFailed": {
    none: "The file could not be read from disk, and nothing in its text is known to be wrong.",
  },
  "pipeline.refFilterShape": {
    none: `${TODO}make the value a list of one ref, as it is read here`,
  },
  "pipeline.referenceInvalid": {
    none: "The keys the reference was meant to name cannot be guessed.",
  },
  "pipeline.referenceLoop": {
    none: "Which reference of the circle to remove is your choice.",
  },
  "pipeline.referenceMissing": {
    none: "The referenced job may be misspelt or defined in a file not read here, and which one is not known.",
  },
  "pipeline.referenceTooDeep": {
    none: "Shortening the chain of references means choosing which ones to write out.",
  },
  "pipeline.ruleIfShape": {
    none: "The value is not an expression, so what the rule was meant to test cannot be guessed.",
  },
  "pipeline.ruleShape": {
    none: "The rule it was meant to be cannot be guessed from a value of the wrong form.",
  },
  "pipeline.ruleWhen": { none: `${TODO}change to the closest allowed value` },
  "pipeline.rulesShape": {
    none: "The rules they were meant to be cannot be guessed from a value of the wrong form.",
  },
  "pipeline.rulesWithOnly": {
    none: "Either the rules or only/except must go, and which one you meant to keep is not known.",
  },
  "pipeline.undefinedNeed": {
    none: "The needed job may be misspelt or not written yet, and which one is not known.",
  },
  "pipeline.undefinedStage": {
    none: "The stage may be misspelt or missing from the list of stages, and either edit could be the right one.",
  },
  "pipeline.unknownContext": {
    none: "Which of the agents that serve the job was meant cannot be known.",
  },
  "pipeline.variableShape": {
    none: "The value the variable was meant to have cannot be guessed from a value of the wrong form.",
  },
  "pipeline.variablesShape": {
    none: "The variables they were meant to be cannot be guessed from a value of the wrong form.",
  },
  "pipeline.yamlAlias": {
    none: "The anchor may be misspelt or missing, and which one is not known.",
  },
  "pipeline.yamlSyntax": {
    none: "Broken YAML could have meant many different things.",
  },
  "pipeline.yamlTooDeep": {
    none: "The nesting has to be reworked by hand; there is no single flatter form.",
  },

  "rules.unreachable": {
    none: "Whether to add a condition to the earlier rule, move this one or delete it is your choice.",
  },

  "schema.crossField": {
    none: "Two settings contradict each other, and either may be the one to change.",
  },
  "schema.deprecatedKey": {
    none: "The key still works in this GitLab version, and when to drop it is your choice.",
  },
  "schema.empty": { none: "Only you know the value to write." },
  "schema.enum": {
    fix: "change to the closest allowed value, when one is close",
  },
  "schema.failsLater": {
    none: "The value needs another form, and the one you meant cannot be guessed.",
  },
  "schema.format.cidr": {
    none: "An address range can be corrected in many ways, and the range is yours to choose.",
  },
  "schema.format.dns1123Label": {
    none: "A name can be corrected in many ways, and the name is yours to choose.",
  },
  "schema.format.dns1123Subdomain": {
    none: "A name can be corrected in many ways, and the name is yours to choose.",
  },
  "schema.format.duration": {
    none: `${TODO}add the "s" to a plain number of seconds`,
  },
  "schema.format.hostname": {
    none: "A host name can be corrected in many ways, and the name is yours to choose.",
  },
  "schema.format.labelKey": {
    none: "A label or annotation key can be corrected in many ways, and the key is yours to choose.",
  },
  "schema.format.labelValue": {
    none: "A label value can be corrected in many ways, and the value is yours to choose.",
  },
  "schema.format.quantity": {
    none: "The amount you meant (and its unit) cannot be guessed from the value written.",
  },
  "schema.minItems": {
    none: "Only you know which items the list should hold.",
  },
  "schema.missingKey": {
    none: `${TODO}insert the missing key with a placeholder value`,
  },
  "schema.notInVersion": {
    none: "Either the key or the GitLab version chosen is wrong, and only you know which.",
  },
  "schema.oneOf": { fix: "keep only one of the keys set" },
  "schema.pattern": {
    none: "The value can be corrected in many ways, and the one you meant cannot be guessed.",
  },
  "schema.properties": { none: "Which keys to add or remove is your choice." },
  "schema.range": {
    none: "The number is out of range, and the right number is yours to choose.",
  },
  "schema.removedKey": {
    fix: "rename the key to its new name, or remove it when it has none",
  },
  "schema.reservedKey": {
    none: "The key uses a prefix kept for Kubernetes or GitLab, and the new name is yours to choose.",
  },
  "schema.tooLong": {
    none: "Shortening the value means choosing what to cut.",
  },
  "schema.type": {
    fix: "rewrite the value as the expected type, where that is clear",
  },
  "schema.unknownKey": {
    fix: "change to the closest allowed key, when one is close",
  },

  "security.agentIdentityShared": SILENCE,
  "security.broadImpersonation": SILENCE,
  "security.noEnvironmentFilter": SILENCE,
  "security.unprotectedProduction": SILENCE,
  "security.wildcardEnvironment": SILENCE,

  "target.proposalOnly": {
    none: "This is a note on the compatibility target you chose, and the file is right for that target.",
  },
  "target.unsupportedKey": {
    none: "Removing the key changes what the configuration means, and the compatibility target may be the thing to change instead.",
  },

  "template.deleteResourcesTemplated": {
    none: "Which fixed value to write instead of the template is your choice.",
  },
  "template.execution": {
    none: "The template fails because of its own logic, which can be corrected in many ways.",
  },
  "template.fieldOfValue": {
    none: "The field you meant, or the value it belongs to, cannot be guessed.",
  },
  "template.ignoredFile": { none: `${TODO}rename the file to default.yaml` },
  "template.limit": {
    none: "The template does too much work, and how to simplify it is your choice.",
  },
  "template.notInVersion": {
    none: "The file has no effect before that GitLab version; the version chosen, not the file, is what may need to change.",
  },
  "template.objects": {
    none: "The objects they were meant to be cannot be guessed from a value of the wrong form.",
  },
  "template.renderedYaml": {
    none: "The rendered text is not valid YAML, and the change to the template that would fix it cannot be guessed.",
  },
  "template.syntax": {
    none: "A broken template action could have meant many different things.",
  },
  "template.unknownFunction": {
    fix: "change to the closest template function, when one is close",
  },
  "template.unknownVariable": {
    fix: "change to the closest available variable, when one is close",
  },
  "template.unquotedAction": { fix: "quote the value" },
  "template.yaml": {
    none: "Broken YAML could have meant many different things.",
  },

  "yaml.collectionKey": { none: "Only you know the text key that was meant." },
  "yaml.controlCharacter": { none: `${TODO}delete the control character` },
  "yaml.duplicateKey": {
    fix: "remove the earlier copies of the key, which GitLab ignores",
  },
  "yaml.extraDocument": {
    none: "The documents after the first may belong in another file or in the first one, and only you know which.",
  },
  "yaml.syntax": {
    none: "Broken YAML could have meant many different things.",
  },
  "yaml.tooDeep": {
    none: "The nesting has to be reworked by hand; there is no single flatter form.",
  },
  "yaml.unreadable": {
    none: "The document cannot be turned into settings at all, and what it was meant to say cannot be guessed.",
  },
  "yaml.warning": {
    none: "The YAML reader warns about many kinds of things, which have no single correction.",
  },
};

/**
 * Dotted strings of the engine that are no diagnostic code, each read where it stands. `file`
 * limits the exclusion to one file (the same string is a diagnostic code elsewhere).
 */
const NOT_CODES: readonly {
  readonly value: string;
  readonly file?: string;
  readonly why: string;
}[] = [
  { value: "config.yaml", why: "a file name" },
  { value: "default.yaml", why: "a file name" },
  { value: "yaml.scalar", why: "a tag the YAML reader puts on its nodes" },
  { value: "yaml.pair", why: "a tag the YAML reader puts on its nodes" },
  { value: "yaml.map", why: "a tag the YAML reader puts on its nodes" },
  { value: "yaml.seq", why: "a tag the YAML reader puts on its nodes" },
  { value: "yaml.document", why: "a tag the YAML reader puts on its nodes" },
  { value: "yaml.node.type", why: "a tag the YAML reader puts on its nodes" },
  {
    value: "workspaces.example.dev",
    why: "an example host name in a completion snippet",
  },
  ...[
    "environment.pattern",
    "rule.evaluation",
    "namespace.truncated",
    "namespace.invalid",
  ].map((value) => ({
    value,
    file: `${ENGINE}/access/simulate.ts`,
    why: "a problem of a simulated job (SimulationProblem, agentcfg simulate's output), not a diagnostic on a file",
  })),
];

// ---------------------------------------------------------------------------------------------
// Reading the source: the string literals of a TypeScript file, outside comments and regular
// expressions, with what stands around them.

interface Literal {
  /** The text between the quotes; in a template string each `${…}` reads `${}`. */
  readonly value: string;
  readonly interpolated: boolean;
  readonly start: number;
  readonly end: number;
}

const WORD = /[\w$]/;
/** After these a `/` starts a regular expression, not a division. */
const BEFORE_REGEX = new Set([
  "",
  "return",
  "typeof",
  "case",
  "do",
  "else",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "instanceof",
  "yield",
  "await",
]);

function stringLiterals(source: string, file = "source"): Literal[] {
  const out: Literal[] = [];
  let i = 0;
  let previous = ""; // the last token: a word, or one punctuation character
  const fail = (what: string): never => {
    const line = source.slice(0, i).split("\n").length;
    throw new Error(`${file}:${line}: ${what}`);
  };
  const quoted = (quote: string) => {
    const start = i;
    i++;
    while (source[i] !== quote) {
      if (i >= source.length || source[i] === "\n") fail("unterminated string");
      i += source[i] === "\\" ? 2 : 1;
    }
    i++;
    out.push({
      value: source.slice(start + 1, i - 1),
      interpolated: false,
      start,
      end: i,
    });
  };
  const template = () => {
    const start = i;
    let value = "";
    let interpolated = false;
    i++;
    for (;;) {
      if (i >= source.length) fail("unterminated template string");
      const c = source[i];
      if (c === "\\") {
        value += source.slice(i, i + 2);
        i += 2;
      } else if (c === "`") {
        i++;
        break;
      } else if (c === "$" && source[i + 1] === "{") {
        i += 2;
        code(true);
        value += "${}";
        interpolated = true;
      } else {
        value += c;
        i++;
      }
    }
    out.push({ value, interpolated, start, end: i });
  };
  const regex = () => {
    let inClass = false;
    i++;
    for (;;) {
      const c = source[i];
      if (i >= source.length || c === "\n")
        fail("unterminated regular expression");
      if (c === "\\") i++;
      else if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) break;
      i++;
    }
    i++;
    while (/[a-z]/.test(source[i] ?? "")) i++;
  };
  /** Code up to the end, or up to the `}` that closes a template's `${`. */
  function code(inTemplate: boolean): void {
    let depth = 0;
    while (i < source.length) {
      const c = source[i];
      const next = source[i + 1];
      if (c === "/" && next === "/") {
        const end = source.indexOf("\n", i);
        i = end < 0 ? source.length : end;
      } else if (c === "/" && next === "*") {
        const end = source.indexOf("*/", i + 2);
        if (end < 0) fail("unterminated comment");
        i = end + 2;
      } else if (c === "'" || c === '"') {
        quoted(c);
        previous = "a";
      } else if (c === "`") {
        template();
        previous = "a";
      } else if (
        c === "/" &&
        (BEFORE_REGEX.has(previous) ||
          /^[(,=:[!&|?{};+\-*%<>~^]$/.test(previous))
      ) {
        regex();
        previous = "a";
      } else if (WORD.test(c)) {
        const start = i;
        while (i < source.length && WORD.test(source[i])) i++;
        previous = source.slice(start, i);
      } else {
        if (c === "{") depth++;
        if (c === "}") {
          if (inTemplate && depth === 0) {
            i++;
            return;
          }
          depth--;
        }
        if (!/\s/.test(c)) previous = c;
        i++;
      }
    }
    if (inTemplate) fail("unterminated ${ in a template string");
  }
  code(false);
  return out;
}

/** A diagnostic code: a namespace, a dot, a name (`schema.unknownKey`, `schema.format.cidr`). */
const CODE_SHAPE = /^[a-z][a-zA-Z]*(\.[a-zA-Z][a-zA-Z0-9]*)+$/;
/** A code built from a template string: `schema.format.${format}`. */
const CODE_TEMPLATE_SHAPE =
  /^[a-z][a-zA-Z]*\.([a-zA-Z0-9.]|\$\{\})*\$\{\}([a-zA-Z0-9.]|\$\{\})*$/;

/** A literal that is compared with a code (`case 'x':`, `d.code === 'x'`) reads a code, it emits none. */
function isComparedWith(source: string, literal: Literal): boolean {
  const before = source.slice(Math.max(0, literal.start - 12), literal.start);
  const after = source.slice(literal.end, literal.end + 6);
  return /(\bcase|[!=]==?)\s*$/.test(before) || /^\s*[!=]==?/.test(after);
}

interface SourceFile {
  readonly file: string;
  readonly text: string;
}

interface Found {
  /** Each code, with where it is written (`file:line`). */
  readonly codes: Map<string, string[]>;
  /** The template strings that build a code, as `${file}: ${value}`. */
  readonly templates: string[];
  /** The exclusions of NOT_CODES that matched something. */
  readonly excluded: Set<(typeof NOT_CODES)[number]>;
}

function codesIn(files: readonly SourceFile[]): Found {
  const found: Found = { codes: new Map(), templates: [], excluded: new Set() };
  for (const { file, text } of files) {
    for (const literal of stringLiterals(text, file)) {
      if (literal.interpolated) {
        if (CODE_TEMPLATE_SHAPE.test(literal.value))
          found.templates.push(`${file}: ${literal.value}`);
        continue;
      }
      if (!CODE_SHAPE.test(literal.value) || isComparedWith(text, literal))
        continue;
      const exclusion = NOT_CODES.find(
        (n) =>
          n.value === literal.value &&
          (n.file === undefined || n.file === file),
      );
      if (exclusion) {
        found.excluded.add(exclusion);
        continue;
      }
      const where = `${file}:${text.slice(0, literal.start).split("\n").length}`;
      (
        found.codes.get(literal.value) ??
        found.codes.set(literal.value, []).get(literal.value)!
      ).push(where);
    }
  }
  return found;
}

function engineFiles(): SourceFile[] {
  return readdirSync(path.join(root, ENGINE), {
    recursive: true,
    encoding: "utf8",
  })
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => {
      const file = `${ENGINE}/${name.split(path.sep).join("/")}`;
      return { file, text: readFileSync(path.join(root, file), "utf8") };
    });
}

// ---------------------------------------------------------------------------------------------
// The codes built from template strings, all in schemaDiagnostics.ts: `schema.format.${format}`
// (a broken pattern of a value whose schema names its format) and `schema.${error.keyword}` (any
// schema rule its switch has no case for). Both are enumerated from the schemas the engine
// validates with, walked as schemaDiagnostics reads their errors.

const read = (file: string) => readFileSync(path.join(root, file), "utf8");

/** The text of a top-level function of a source file, from its `function` line to its closing brace. */
function functionText(source: string, name: string): string {
  const start = source.search(
    new RegExp(`^(export )?function ${name}\\(`, "m"),
  );
  assert.ok(start >= 0, `function ${name} not found`);
  const end = source.indexOf("\n}\n", start);
  return source.slice(start, end < 0 ? source.length : end + 2);
}

const caseLabels = (text: string) =>
  [...text.matchAll(/case\s+'([^']+)'\s*:/g)].map((m) => m[1]);

/** Keywords that never fail with an error of their own: their subschemas report (or they are metadata). */
const NO_ERROR_OF_THEIR_OWN = new Set([
  "$schema",
  "$id",
  "$ref",
  "$comment",
  "$defs",
  "definitions",
  "title",
  "description",
  "default",
  "examples",
  "properties",
  "patternProperties",
  "items",
  "allOf",
  "then",
  "else",
]);

/** The annotation keywords the two validators declare (`const ANNOTATIONS = [...]`). */
function declaredAnnotations(): Set<string> {
  const out = new Set<string>();
  for (const file of [
    `${ENGINE}/config/agentConfigSchema.ts`,
    `${ENGINE}/template/diagnostics/templateSchema.ts`,
  ]) {
    const list = /const ANNOTATIONS = \[([^\]]*)\]/.exec(read(file));
    assert.ok(list, `no ANNOTATIONS in ${file}`);
    for (const m of list[1].matchAll(/'([^']+)'/g)) out.add(m[1]);
  }
  return out;
}

type Schema = Record<string, unknown>;
const isSchema = (v: unknown): v is Schema =>
  typeof v === "object" && v !== null && !Array.isArray(v);

interface SchemaCodes {
  /** `schema.format.${format}`: a broken pattern (or map key) whose schema names its format. */
  readonly formats: Set<string>;
  /** `schema.${keyword}`: a rule describe() has no case for. */
  readonly others: Set<string>;
  /** The codes written as literals that the errors get too (`schema.pattern`, `schema.crossField`...). */
  readonly literal: Set<string>;
}

/** The codes schemaDiagnostics gives the errors of these schemas. */
function schemaFamilyCodes(schemas: readonly Schema[]): SchemaCodes {
  const handled = new Set(
    caseLabels(functionText(read(SCHEMA_DIAGNOSTICS), "describe")),
  );
  assert.ok(
    handled.has("pattern") && handled.has("additionalProperties"),
    "the switch of describe() in schemaDiagnostics.ts was not read",
  );
  const annotations = declaredAnnotations();
  const silent = (keyword: string) =>
    NO_ERROR_OF_THEIR_OWN.has(keyword) || annotations.has(keyword);
  const out: SchemaCodes = {
    formats: new Set(),
    others: new Set(),
    literal: new Set(),
  };
  const formatCode = (node: Schema) =>
    typeof node["x-format"] === "string"
      ? out.formats.add(`schema.format.${node["x-format"]}`)
      : out.literal.add("schema.pattern");
  const seen = new Set<Schema>();
  const walk = (node: unknown, keyOfMap: boolean) => {
    if (!isSchema(node) || seen.has(node)) return;
    seen.add(node);
    for (const keyword of Object.keys(node)) {
      if (silent(keyword) || keyword === "if") continue;
      if (keyOfMap && keyword === "not") out.literal.add("schema.reservedKey");
      else if (keyOfMap) formatCode(node);
      else if (typeof node.errorMessage === "string")
        out.literal.add("schema.crossField");
      else if (keyword === "pattern") formatCode(node);
      else if (!handled.has(keyword)) out.others.add(`schema.${keyword}`);
    }
    // Errors inside `if` and `not` are not reported (only the `not` itself is).
    for (const key of [
      "properties",
      "patternProperties",
      "$defs",
      "definitions",
    ])
      if (isSchema(node[key]))
        for (const sub of Object.values(node[key])) walk(sub, keyOfMap);
    for (const key of ["additionalProperties", "then", "else"])
      walk(node[key], keyOfMap);
    for (const key of ["items", "allOf", "anyOf", "oneOf"])
      for (const sub of [node[key]].flat()) walk(sub, keyOfMap);
    walk(node.propertyNames, true);
  };
  for (const schema of schemas) walk(schema, false);
  return out;
}

/** The template strings that build codes, and how each family's codes are listed. */
const FAMILIES: Record<string, () => Set<string>> = {
  [`${SCHEMA_DIAGNOSTICS}: schema.format.\${}`]: () =>
    validatedSchemaCodes().formats,
  [`${SCHEMA_DIAGNOSTICS}: schema.\${}`]: () => validatedSchemaCodes().others,
};

let schemaCodes: SchemaCodes | undefined;
/** The codes of the agent configuration schema (each GitLab version's) and of the template schema. */
function validatedSchemaCodes(): SchemaCodes {
  schemaCodes ??= schemaFamilyCodes([
    ...GITLAB_VERSIONS.map((v) => agentConfigSchemaFor(v)),
    environmentTemplateSchema,
  ]);
  return schemaCodes;
}

/** Each code the engine can emit, with where (a family's codes: where the family's template is). */
function emittedCodes(found: Found): Map<string, string[]> {
  const out = new Map(found.codes);
  for (const template of found.templates) {
    for (const code of FAMILIES[template]?.() ?? [])
      out.set(code, [...(out.get(code) ?? []), template]);
  }
  return out;
}

function unlisted(
  codes: ReadonlyMap<string, string[]>,
  table: Record<string, Entry>,
): string[] {
  return [...codes.keys()].filter((code) => !Object.hasOwn(table, code)).sort();
}

function stale(
  codes: ReadonlyMap<string, string[]>,
  table: Record<string, Entry>,
): string[] {
  return Object.keys(table)
    .filter((code) => !codes.has(code))
    .sort();
}

// ---------------------------------------------------------------------------------------------
// The dispatchers: which codes get a quick fix today.

interface Dispatch {
  readonly exact: Map<string, string>;
  readonly prefixes: Map<string, string>;
}

function dispatchers(): Dispatch {
  const exact = new Map<string, string>();
  const prefixes = new Map<string, string>();
  const codeActions = read(CODE_ACTIONS);
  const quickFixes = read(QUICK_FIXES);
  const parts = [
    {
      where: `${CODE_ACTIONS} renameFix`,
      text: functionText(codeActions, "renameFix"),
    },
    {
      where: `${CODE_ACTIONS} quickFix`,
      text: functionText(codeActions, "quickFix"),
    },
    {
      where: `${QUICK_FIXES} quickFixesFor`,
      text: functionText(quickFixes, "quickFixesFor"),
    },
  ];
  for (const { where, text } of parts) {
    const codes = [
      ...caseLabels(text),
      ...[...text.matchAll(/\.code\s*[!=]==?\s*'([^']+)'/g)].map((m) => m[1]),
    ];
    const starts = [...text.matchAll(/\.code\.startsWith\('([^']+)'\)/g)].map(
      (m) => m[1],
    );
    assert.ok(
      codes.length + starts.length > 0,
      `no code read from ${where}: has it changed shape?`,
    );
    for (const code of codes) exact.set(code, where);
    for (const prefix of starts) prefixes.set(prefix, where);
  }
  return { exact, prefixes };
}

function handledBy(dispatch: Dispatch, code: string): string | undefined {
  return (
    dispatch.exact.get(code) ??
    [...dispatch.prefixes].find(([prefix]) => code.startsWith(prefix))?.[1]
  );
}

// ---------------------------------------------------------------------------------------------

const found = codesIn(engineFiles());
const emitted = emittedCodes(found);
const dispatch = dispatchers();
const listing = () =>
  [...emitted]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([code, where]) =>
        `  ${code}  (${where[0]}${where.length > 1 ? ` +${where.length - 1}` : ""})`,
    )
    .join("\n");

test("the codes are read from the engine (so the checks below check something)", () => {
  assert.ok(
    emitted.size >= 100,
    `only ${emitted.size} codes found:\n${listing()}`,
  );
  for (const code of [
    "schema.unknownKey",
    "yaml.syntax",
    "security.unprotectedProduction",
    "crossFile.resourceManagementNeedsCiJob",
    "template.unquotedAction",
    "schema.format.duration",
  ]) {
    assert.ok(emitted.has(code), `${code} not found:\n${listing()}`);
  }
});

test("every code the engine emits has an entry in FIXES", () => {
  const missing = unlisted(emitted, FIXES);
  assert.deepEqual(
    missing,
    [],
    `add to FIXES, with the fix or why there is none: ${missing.join(", ")}. The codes found:\n${listing()}`,
  );
});

test("every entry of FIXES is a code the engine still emits", () => {
  const gone = stale(emitted, FIXES);
  assert.deepEqual(
    gone,
    [],
    `remove from FIXES (no longer emitted): ${gone.join(", ")}. The codes found:\n${listing()}`,
  );
});

test("every template string that builds a code is a family this test lists", () => {
  assert.deepEqual(
    found.templates.filter((t) => !FAMILIES[t]),
    [],
    "a code built from a template string: add to FAMILIES how to list the codes it makes",
  );
  assert.deepEqual(
    Object.keys(FAMILIES).filter((t) => !found.templates.includes(t)),
    [],
    "a family of FAMILIES is no longer in the source",
  );
});

test("every exclusion of NOT_CODES still matches a string of the engine", () => {
  assert.deepEqual(
    NOT_CODES.filter((n) => !found.excluded.has(n)).map(
      (n) => `${n.value}${n.file ? ` in ${n.file}` : ""}`,
    ),
    [],
  );
});

test("every code marked with a fix is handled by a quick fix dispatcher", () => {
  const unhandled = Object.entries(FIXES)
    .filter(([code, entry]) => "fix" in entry && !handledBy(dispatch, code))
    .map(([code]) => code);
  assert.deepEqual(
    unhandled,
    [],
    `marked fix, but neither ${CODE_ACTIONS} nor ${QUICK_FIXES} handles them`,
  );
});

test("every code a dispatcher handles is marked with a fix", () => {
  const notMarked = [...emitted.keys()]
    .filter(
      (code) => handledBy(dispatch, code) && !("fix" in (FIXES[code] ?? {})),
    )
    .map((code) => `${code} (${handledBy(dispatch, code)})`);
  assert.deepEqual(
    notMarked,
    [],
    "a dispatcher fixes these: mark them { fix: ... } in FIXES",
  );
  const notEmitted = [...dispatch.exact]
    .filter(([code]) => !emitted.has(code))
    .map(([code, where]) => `${code} (${where})`);
  assert.deepEqual(
    notEmitted,
    [],
    "a dispatcher handles a code the engine no longer emits",
  );
  for (const [prefix, where] of dispatch.prefixes)
    assert.ok(
      [...emitted.keys()].some((code) => code.startsWith(prefix)),
      `${where} handles "${prefix}*", which no code has`,
    );
});

test("every reason and fix is a few plain words, without tracker references", () => {
  for (const [code, entry] of Object.entries(FIXES)) {
    const text = "fix" in entry ? entry.fix : entry.none;
    assert.ok(
      text.trim().length >= 8,
      `${code}: say what the fix is, or why there is none`,
    );
    assert.ok(
      !/#\d|![0-9]|issue|\bMR\b|merge request|https?:/i.test(text),
      `${code}: no issue numbers or trackers: ${text}`,
    );
    assert.ok(
      !/`|--|\bdata\.|\b[a-z]+[A-Z]\w*\(/.test(text),
      `${code}: words a user reads, no code or flags: ${text}`,
    );
    if ("none" in entry && !text.startsWith(TODO))
      assert.match(text, /^[A-Z].*\.$/, `${code}: a reason is a sentence`);
  }
});

test("the summary of fixes", () => {
  const entries = Object.entries(FIXES);
  const withFix = entries.filter(([, e]) => "fix" in e);
  const todo = entries.filter(
    ([, e]) => "none" in e && e.none.startsWith(TODO),
  );
  const reasoned = entries.length - withFix.length - todo.length;
  console.log(
    `diagnostic codes: ${entries.length}; with a quick fix: ${withFix.length}; without, for a reason: ${reasoned}; without, a known gap (TODO): ${todo.length}`,
  );
  for (const [code, e] of todo)
    console.log(
      `  TODO ${code}: ${"none" in e ? e.none.slice(TODO.length) : ""}`,
    );
  assert.equal(
    entries.length,
    emitted.size,
    "FIXES and the codes found differ: see the tests above",
  );
});

test("the extraction can fail: a new code in the source is found and reported missing from FIXES", () => {
  const source = [
    "import { x } from './x';",
    "// 'schema.inComment' is only mentioned",
    "/* and `template.inBlockComment` too */",
    "const quoteInRegex = /'/g; const backtickInRegex = /`/g;",
    "const message = `${quoteInRegex}'not.aCode ${'a'}`;",
    "export const made = { range, severity: 'error', code: 'schema.brandNew', message };",
    "export const later = (d) => d.code === 'schema.onlyCompared' || x.has('yaml.syntax');",
    "switch (code) { case 'schema.onlyACase': break; }",
    "export const family = (f) => `widget.${f}`;",
  ].join("\n");
  const synthetic = codesIn([{ file: `${ENGINE}/synthetic.ts`, text: source }]);
  assert.deepEqual([...synthetic.codes.keys()].sort(), [
    "schema.brandNew",
    "yaml.syntax",
  ]);
  assert.deepEqual(unlisted(synthetic.codes, FIXES), ["schema.brandNew"]);
  assert.deepEqual(synthetic.templates, [
    `${ENGINE}/synthetic.ts: widget.\${}`,
  ]);
  assert.ok(
    !FAMILIES[synthetic.templates[0]!],
    "an unknown family is reported",
  );
  assert.throws(
    () => stringLiterals("const broken = 'no end;\n", "broken.ts"),
    /broken\.ts:1: unterminated string/,
  );
});

test("the family enumeration reads the schema as schemaDiagnostics does", () => {
  const codes = schemaFamilyCodes([
    {
      type: "object",
      properties: {
        timeout: {
          type: "string",
          pattern: "^[0-9]+s$",
          "x-format": "duration",
        },
        plain: { type: "string", pattern: "^a$" },
        tags: { type: "array", uniqueItems: true },
        fixed: { const: 1, errorMessage: "must be 1" },
      },
      if: { properties: { plain: { const: "a" } } },
      then: { required: ["timeout"] },
      propertyNames: {
        allOf: [
          { pattern: "^k", "x-format": "labelKey" },
          { not: { pattern: "^x" } },
        ],
      },
    },
  ]);
  assert.deepEqual([...codes.formats].sort(), [
    "schema.format.duration",
    "schema.format.labelKey",
  ]);
  assert.deepEqual([...codes.others], ["schema.uniqueItems"]);
  assert.deepEqual([...codes.literal].sort(), [
    "schema.crossField",
    "schema.pattern",
    "schema.reservedKey",
  ]);
  // What the real schemas give that is written as a literal is found as one.
  for (const code of validatedSchemaCodes().literal)
    assert.ok(found.codes.has(code), code);
});
