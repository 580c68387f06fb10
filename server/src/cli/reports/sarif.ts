/**
 * SARIF 2.1.0 (OASIS Standard, https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html),
 * the format GitHub code scanning and most scanners' dashboards read. One run, the tool described
 * once with one rule per diagnostic code, one result per problem.
 * test/unit/reports/sarif.test.ts validates the output against the official JSON schema.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Severity } from '../../engine/api';
import { portablePath, type FileReport, type ReportContext } from './fileReport';
import { fingerprints } from './fingerprint';

/** The `id` of the official schema (errata01), which a log names in `$schema` (§3.13.3). */
export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** The project has no homepage of its own yet: point at what it checks, GitLab's agent documentation. */
const INFORMATION_URI = 'https://docs.gitlab.com/user/clusters/agent/';

/**
 * Relative paths are resolved by the consumer against a base it knows (§3.4.4); `%SRCROOT%`, the
 * checked-out sources, is the one GitHub code scanning and the SARIF viewers understand.
 */
const SOURCE_ROOT = '%SRCROOT%';

/** §3.27.10 `level`: SARIF has no "information" or "hint"; both are `note`. */
const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', information: 'note', hint: 'note' };

export function renderSarif(results: readonly FileReport[], context: ReportContext): string {
  const codes = [...new Set(results.flatMap((r) => r.diagnostics.map((d) => d.code)))].sort();
  const ruleIndex = new Map(codes.map((code, index) => [code, index]));
  const log = {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'agentcfg',
            version: context.toolVersion,
            informationUri: INFORMATION_URI,
            // §3.49: a reportingDescriptor needs only its id; the code is what users search for.
            rules: codes.map((id) => ({ id })),
          },
        },
        // §3.14.27: a run with results over text files must say what a column counts. SARIF's
        // default, UTF-16 code units, is exactly what the engine's LSP `character` offsets count,
        // so the columns below are those offsets plus one, with no conversion.
        columnKind: 'utf16CodeUnits',
        results: results.flatMap((r) => {
          const prints = fingerprints(r);
          return r.diagnostics.map((d, i) => ({
            ruleId: d.code,
            ruleIndex: ruleIndex.get(d.code),
            level: LEVEL[d.severity],
            message: { text: d.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: artifactLocation(r.file),
                  // §3.30: lines and columns are 1-based, and endColumn is the column after the
                  // region (§3.30.8), as the LSP end position is exclusive too.
                  region: {
                    startLine: d.range.start.line + 1,
                    startColumn: d.range.start.character + 1,
                    endLine: d.range.end.line + 1,
                    endColumn: d.range.end.character + 1,
                  },
                },
              },
            ],
            // §3.27.17; the Code Quality fingerprint (fingerprint.ts), stable when lines are inserted above.
            partialFingerprints: { 'agentcfgFinding/v1': prints[i] },
            // §3.27.23, §3.35: a finding the user silenced, by a comment in the file (inSource) or
            // by a setting or flag (external); viewers list it as suppressed, not as a problem.
            ...(d.suppressed ? { suppressions: [{ kind: d.suppressed }] } : {}),
          }));
        }),
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

/**
 * §3.4.3 wants a valid URI reference: a relative path is percent-encoded segment by segment (a
 * space or `#` in a directory name would otherwise break it) and resolved against %SRCROOT%; an
 * absolute path becomes a `file:` URI, which needs no base.
 */
function artifactLocation(file: string): { uri: string; uriBaseId?: string } {
  if (path.isAbsolute(file)) return { uri: pathToFileURL(file).href };
  return { uri: portablePath(file).split('/').map(encodeURIComponent).join('/'), uriBaseId: SOURCE_ROOT };
}
