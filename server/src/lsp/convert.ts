import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver';
import type { EngineDiagnostic, Severity } from '../engine/api';
import { DIAGNOSTIC_SOURCE } from '../protocol';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

/** Engine diagnostics already use LSP positions; only severity and source change. */
export function toLspDiagnostic(d: EngineDiagnostic): Diagnostic {
  return {
    range: d.range,
    severity: SEVERITY[d.severity],
    code: d.code,
    source: DIAGNOSTIC_SOURCE,
    message: d.message,
    ...(d.tags?.length ? { tags: d.tags.map(() => DiagnosticTag.Deprecated) } : {}),
    ...(d.data ? { data: d.data } : {}),
  };
}
