// Renders media/icon.svg (the source, edited by hand) to media/icon.png, the 128×128 icon
// package.json names (the marketplace and VS Code's extension list take PNG, not SVG), in the
// Chromium the e2e harness drives. Run after changing the SVG: `node scripts/render-icon.mjs`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ensureChromium } from './lib/code-server.mjs';
import { root } from './lib/proc.mjs';

const SIZE = 128;
const svg = readFileSync(path.join(root, 'media', 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: await ensureChromium(), headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE }, deviceScaleFactor: 1 });
  await page.setContent(`<!doctype html><body style="margin:0;background:transparent">${svg}</body>`);
  const out = path.join(root, 'media', 'icon.png');
  // The hexagon's corners stay transparent: the icon sits on light and dark backgrounds.
  await page.locator('svg').screenshot({ path: out, omitBackground: true });
  console.log(`wrote ${path.relative(process.cwd(), out)}`);
} finally {
  await browser.close();
}
