/**
 * The script of the simulation view's page, as text: it runs in the webview (a browser), not in
 * the extension host, and the .vsix ships only the bundles, so it travels inside dist/client.js.
 * Plain ES2020 (the project compiles without DOM types; test/e2e/simulationMatrix.test.ts drives it).
 *
 * What it does: fills the page with the HTML the extension posts (keeping scroll, focus and the
 * filter, since the page is never reloaded), filters rows, moves between cells with the arrow keys,
 * and posts clicks (Enter/Space on a focused cell) back to the extension.
 */
export const MATRIX_SCRIPT = String.raw`(function () {
  const vscode = acquireVsCodeApi();
  const state = vscode.getState() || { filter: '', denied: false, problems: false };
  const byId = (id) => document.getElementById(id);
  const filter = byId('filter');
  const onlyDenied = byId('only-denied');
  const onlyProblems = byId('only-problems');
  filter.value = state.filter;
  onlyDenied.checked = state.denied;
  onlyProblems.checked = state.problems;

  // The header row sticks under the bar, whatever height the bar wraps to.
  const root = document.documentElement;
  const bar = byId('bar');
  new ResizeObserver(() => root.style.setProperty('--bar', bar.offsetHeight + 'px')).observe(bar);
  // The view's width without its scrollbar: what the bar, the header and the jobs keep when the matrix is wider.
  const setView = () => root.style.setProperty('--view', root.clientWidth + 'px');
  window.addEventListener('resize', setView);
  setView();

  function applyFilter() {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    let total = 0;
    for (const row of document.querySelectorAll('tr[data-text]')) {
      const visible = words.every((w) => row.dataset.text.includes(w)) && (!onlyDenied.checked || row.dataset.denied === '1') && (!onlyProblems.checked || row.dataset.problems === '1');
      row.hidden = !visible;
      if (row.closest('#matrix')) {
        total++;
        if (visible) shown++;
      }
    }
    for (const table of document.querySelectorAll('table')) {
      const none = table.querySelector('tr.no-match');
      if (none) none.hidden = !!table.querySelector('tr[data-text]:not([hidden])');
    }
    byId('count').textContent = shown === total ? total + ' entries' : shown + ' of ' + total + ' entries';
    vscode.setState({ filter: filter.value, denied: onlyDenied.checked, problems: onlyProblems.checked });
  }
  filter.addEventListener('input', applyFilter);
  onlyDenied.addEventListener('change', applyFilter);
  onlyProblems.addEventListener('change', applyFilter);

  window.addEventListener('message', (event) => {
    const message = event.data;
    if (message.type !== 'render') return;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.nav : undefined;
    byId('head').innerHTML = message.head;
    byId('matrix').innerHTML = message.matrix;
    byId('jobs').innerHTML = message.jobs;
    // Columns share the width equally down to a readable minimum; more scenarios scroll sideways.
    const matrix = document.querySelector('table.matrix');
    if (matrix) matrix.style.minWidth = 8 + 6.5 * (matrix.querySelectorAll('thead th').length - 1) + 'em';
    applyFilter();
    pointAt(message.entryLine);
    if (focused) {
      const again = document.querySelector('[data-nav="' + focused + '"]');
      if (again) again.focus({ preventScroll: true });
    }
  });

  // The row of the entry whose lens opened the view: marked, and scrolled to once (not on every re-render).
  let scrolledTo = null;
  function pointAt(line) {
    const header = line === null ? null : document.querySelector('#matrix th.entry[data-line="' + line + '"]');
    if (header) header.parentElement.classList.add('current');
    if (header && line !== scrolledTo) header.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    scrolledTo = line;
  }

  function activate(target) {
    const action = target.closest('[data-action]');
    if (action) {
      // The cluster is asked about the rows shown only (the filter bounds the batch too).
      const keys = [...document.querySelectorAll('#matrix tr:not([hidden]) [data-key]')].map((cell) => cell.dataset.key);
      vscode.postMessage({ type: action.dataset.action, keys: [...new Set(keys)] });
      return;
    }
    const cell = target.closest('[data-line]');
    if (cell) vscode.postMessage({ type: 'reveal', file: cell.dataset.file, line: Number(cell.dataset.line) });
  }
  document.addEventListener('click', (event) => activate(event.target));

  const MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  document.addEventListener('keydown', (event) => {
    const cell = event.target.closest && event.target.closest('[data-nav]');
    if (!cell) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate(cell);
      return;
    }
    const move = MOVES[event.key];
    if (!move) return;
    event.preventDefault();
    // Rows hidden by the filter are skipped: the next visible row in that direction.
    const rows = [...document.querySelectorAll('#matrix tbody tr:not([hidden])')];
    const [r, c] = cell.dataset.nav.split(',').map(Number);
    const at = rows.findIndex((row) => row.querySelector('[data-nav^="' + r + ',"]'));
    const row = rows[at + move[0]];
    if (!row) return;
    const cells = [...row.querySelectorAll('[data-nav]')];
    const next = cells[Math.max(0, Math.min(cells.length - 1, c + move[1]))];
    if (next) next.focus();
  });

  applyFilter();
  vscode.postMessage({ type: 'ready' });
})();`;
