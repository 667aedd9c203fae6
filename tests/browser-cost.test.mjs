// The demo page's "What it costs" card (web-demo/cost-chart.js) in real headless Chromium,
// under the page's strict CSP: the chart of the loaded sample renders (an SVG image with
// one line per policy), its figures are simulate()'s own, the pricing switch redraws it,
// a pasted conversation gets its chart, and nothing logs an error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, launchChromium, startDemoServer } from './helpers/chromium.mjs';
import { init, simulate } from '../js/hosts/node.js';

const OUTPUT = path.join(ROOT, 'tests/output');
let server, browser;

before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  await init();
  server = await startDemoServer();
  browser = await launchChromium();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

/** The chart image's SVG text, as the page drew it. */
async function chartSvg(page) {
  const src = await page.getAttribute('#cost-chart img', 'src');
  assert.match(src, /^data:image\/svg\+xml;charset=utf-8,/);
  return decodeURIComponent(src.slice(src.indexOf(',') + 1));
}

test('the cost chart of the loaded sample renders and says what simulate() says', async () => {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(server.url);
  await page.waitForSelector('#cost[data-state="ready"]', { timeout: 20000 });
  // The image decoded: a rendered SVG has a size.
  const size = await page.$eval('#cost-chart img', (img) => img.decode().then(() => [img.naturalWidth, img.naturalHeight]));
  assert.ok(size[0] === 720 && size[1] > 300, `the chart rendered at ${size}`);
  const box = await page.locator('#cost-chart img').boundingBox();
  assert.ok(box && box.width > 300 && box.height > 200, 'the chart is visible on the page');

  const sample = JSON.parse(readFileSync(path.join(ROOT, 'web-demo/samples/coding-session.anthropic.json'), 'utf8'));
  const report = await simulate(sample, { pricing: 'anthropic', policies: ['none', 'every-turn', 'context-editing', 'defaults'] });
  assert.equal(Number(await page.getAttribute('#cost', 'data-turns')), report.turns);
  const svg = await chartSvg(page);
  assert.equal((svg.match(/<polyline /g) || []).length, 2 * report.results.length);
  const note = await page.textContent('#cost-note');
  for (const r of report.results) assert.ok(note.includes(r.label), `the note names ${r.label}`);
  assert.ok(note.includes(`${report.turns} model calls replayed, anthropic`));
  await page.locator('#cost').screenshot({ path: path.join(OUTPUT, 'demo-cost.png') });

  await page.selectOption('#cost-pricing', 'deepseek');
  await page.waitForFunction(() => document.getElementById('cost-note').textContent.includes('deepseek'));
  assert.match(await chartSvg(page), /deepseek deepseek-flash/);
  assert.equal(await page.getAttribute('#cost', 'data-state'), 'ready');

  // A pasted conversation gets its own chart.
  await page.click('#own summary');
  const pasted = sample.slice(0, 6);
  await page.fill('#paste', JSON.stringify(pasted));
  await page.click('#load-paste');
  await page.waitForFunction((n) => document.getElementById('cost').dataset.turns === String(n),
    (await simulate(pasted, { policies: ['none'] })).turns);
  assert.deepEqual(problems, []);
  await page.close();
});
