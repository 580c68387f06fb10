/**
 * The simulation view's page: a strict CSP (no network, only this page's nonce-tagged style and
 * script), VS Code's theme variables, a sticky filter bar, and containers the script fills with the
 * HTML the extension posts (render.ts).
 */
import { MATRIX_SCRIPT } from './webviewScript';

export function matrixPage(nonce: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style nonce="${nonce}">${STYLE}</style></head><body>
<div id="head"><p class="muted">Simulating…</p></div>
<div id="bar" role="search">
<input id="filter" type="search" placeholder="Filter: project, namespace, identity…" aria-label="Filter entries by project, namespace or identity">
<label><input id="only-denied" type="checkbox"> only denied</label>
<label><input id="only-problems" type="checkbox"> only with problems</label>
<span id="count" class="muted" aria-live="polite"></span>
</div>
<div id="matrix"></div>
<div id="jobs"></div>
<script nonce="${nonce}">${MATRIX_SCRIPT}</script>
</body></html>`;
}

// Sticky: the bar at the top; the matrix's header row under it (--bar is its height, set by the
// script) and its entry column at the left, so both stay in sight in a narrow split. A matrix wider
// than the view widens the page, so it scrolls sideways; everything else keeps the view's width
// (--view, set by the script) and stays put.
const STYLE = `
body{font-family:var(--vscode-font-family);font-size:var(--vscode-font-size);color:var(--vscode-foreground);background:var(--vscode-editor-background);margin:0;padding:0 12px 12px;width:max-content;min-width:calc(var(--view,100vw) - 24px)}
#head,#bar,#jobs,.answers{position:sticky;left:12px;width:calc(var(--view,100vw) - 24px);box-sizing:border-box}
h2{font-size:1.15em;margin:10px 0 4px}h3{font-size:1.05em;margin:18px 0 4px}p{margin:4px 0}
code{font-family:var(--vscode-editor-font-family);font-size:.95em;overflow-wrap:anywhere}
.muted,.how{color:var(--vscode-descriptionForeground)}.how{font-size:.9em}
.warn{color:var(--vscode-editorWarning-foreground)}.status{margin-left:6px}
button{font:inherit;color:var(--vscode-button-foreground);background:var(--vscode-button-background);border:none;padding:2px 8px;cursor:pointer}
button:hover{background:var(--vscode-button-hoverBackground)}button:disabled{opacity:.6;cursor:default}
button.link{background:none;color:var(--vscode-textLink-foreground);padding:0}button.link:hover{text-decoration:underline}
#bar{top:0;z-index:3;display:flex;flex-wrap:wrap;gap:4px 12px;align-items:center;padding:6px 0;background:var(--vscode-editor-background);border-bottom:1px solid var(--vscode-panel-border)}
#filter{flex:1 1 100%;color:var(--vscode-input-foreground);background:var(--vscode-input-background);border:1px solid var(--vscode-input-border,transparent);padding:3px 6px}
#filter:focus{outline:1px solid var(--vscode-focusBorder)}
table{border-collapse:separate;border-spacing:0;margin-top:6px;width:100%}
th,td{border-right:1px solid var(--vscode-panel-border);border-bottom:1px solid var(--vscode-panel-border);padding:4px 6px;text-align:left;vertical-align:top}
thead th{position:sticky;top:var(--bar,36px);z-index:1;background:var(--vscode-editor-background);font-weight:600;border-top:1px solid var(--vscode-panel-border)}
th.entry{position:sticky;left:0;z-index:1;background:var(--vscode-editor-background);font-weight:normal;width:22%;min-width:7em;border-left:1px solid var(--vscode-panel-border)}
.scenario{overflow-wrap:anywhere;display:-webkit-box;-webkit-line-clamp:4;-webkit-box-orient:vertical;overflow:hidden}
th.corner{left:0;z-index:2;width:22%;border-left:1px solid var(--vscode-panel-border)}
table.matrix{table-layout:fixed;width:calc(var(--view,100vw) - 24px)}.matrix td.cell{overflow-wrap:anywhere}
.entry .kind{color:var(--vscode-descriptionForeground)}.entry .id{overflow-wrap:anywhere;font-weight:600}
.problem-count,.problem{color:var(--vscode-editorWarning-foreground)}.problem{font-size:.9em;overflow-wrap:anywhere}
td.yes .verdict,td.yes:not(.cell){color:var(--vscode-testing-iconPassed)}td.no .verdict,td.no:not(.cell){color:var(--vscode-errorForeground)}
.why{overflow-wrap:anywhere;font-size:.9em;display:-webkit-box;-webkit-line-clamp:3;-webkit-box-orient:vertical;overflow:hidden}.rbac{font-size:.9em;margin-top:2px}.rbac.unknown{color:var(--vscode-descriptionForeground);font-style:italic}
[data-line]{cursor:pointer}[data-line]:hover{background:var(--vscode-list-hoverBackground)}
[tabindex]:focus{outline:1px solid var(--vscode-focusBorder);outline-offset:-1px;background:var(--vscode-list-focusBackground,transparent)}
tr[hidden]{display:none}tr.current th.entry{box-shadow:inset 3px 0 var(--vscode-focusBorder)}.answers ul{margin:4px 0;padding-left:1.2em}.answers li{margin-bottom:4px;overflow-wrap:anywhere}
`;
