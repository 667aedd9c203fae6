// The demo page's "What it costs" card (web-demo/cost-chart.js) in real headless Chromium,
// under the page's strict CSP: it replays the loaded conversation with the page's own
// settings (threshold, keep recent, keep tail, profile, window), in a worker, and its
// figures are simulate()'s own for those settings; the policies have plain names and a line
// each; lines that coincide are told apart; a turn over the window makes a policy
// impossible, never the cheapest; the pricing switch and a pasted conversation replay it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, launchChromium, startDemoServer } from '../helpers/chromium.mjs';
import { init, simulate } from '../../js/hosts/node.js';
import { costPolicies } from '../../web-demo/cost-policies.js';

const OUTPUT = path.join(ROOT, 'tests/output');
const SAMPLE = JSON.parse(readFileSync(path.join(ROOT, 'web-demo/samples/coding-session.anthropic.json'), 'utf8'));
// The page's settings as it opens (web-demo/index.html).
const PAGE = { threshold: 6000, keepRecent: 3, keepTail: 1200, profile: 'safe', language: 'auto', window: 8000 };
// Okabe & Ito's palette.
const OKABE_ITO = ['#000000', '#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7'];
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

/** What the card should show: simulate() in Node with the page's policies for `settings`. */
function expected(messages, settings, pricing = 'anthropic') {
  return simulate(messages, {
    pricing, profile: settings.profile, window: settings.window, policies: costPolicies(settings).map((p) => p.policy),
  });
}

async function openPage() {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(server.url);
  await page.waitForSelector('#cost[data-state="ready"]', { timeout: 30000 });
  return { page, problems };
}

/** The chart's SVG, as the page shows it. */
function chartSvg(page) {
  return page.$eval('#cost-chart > svg', (svg) => svg.outerHTML);
}

/** The legend as {name, label, total, state, explain} per policy. */
function legend(page) {
  return page.$$eval('#cost-legend li', (items) => items.map((li) => ({
    name: li.dataset.policy,
    state: li.dataset.state,
    label: li.querySelector('.policy-name').textContent,
    total: li.querySelector('.policy-total').textContent,
    explain: li.querySelector('.policy-explain').textContent,
  })));
}

const usd = (v) => `$${v < 1 ? v.toFixed(4) : v.toFixed(2)}`;

/** The polylines of one panel (0: context, 1: cost) as {stroke, dash, points}. */
function polylines(svg, panel) {
  const all = [...svg.matchAll(/<polyline ([^>]*)>/g)].map((m) => ({
    stroke: /stroke="([^"]+)"/.exec(m[1])[1],
    dash: (/stroke-dasharray="([^"]+)"/.exec(m[1]) || [])[1] || '',
    points: /points="([^"]*)"/.exec(m[1])[1].split(' ').filter(Boolean),
  }));
  const half = all.length / 2;
  return panel === 0 ? all.slice(0, half) : all.slice(half);
}

test("the card replays the sample with the page's settings and says what simulate() says for them", async () => {
  const { page, problems } = await openPage();
  const report = await expected(SAMPLE, PAGE);
  assert.equal(Number(await page.getAttribute('#cost', 'data-turns')), report.turns);
  const shown = await legend(page);
  assert.deepEqual(shown.map((p) => p.name), ['none', 'every-turn', 'context-editing', 'defaults']);
  report.results.forEach((r, i) => {
    if (r.turnsOverWindow === 0) assert.equal(shown[i].total, usd(r.totalUsd), `${r.name}: the page's figure is simulate()'s`);
  });
  // midfold's Compactor ran with the page's threshold: it folded, and it is not the "no management" line.
  const compactor = report.results[3];
  assert.ok(compactor.summaries >= 1 && compactor.peakContext < PAGE.threshold + 500, `the Compactor folded at 6,000 (peak ${compactor.peakContext})`);
  assert.deepEqual(compactor.compactor, { threshold: 6000, microTrigger: 4800, clearAtLeast: 2400, keepRecent: 3 });
  const note = await page.textContent('#cost-note');
  assert.match(note, new RegExp(`^${report.turns} turns \\(model calls\\) replayed with anthropic claude-sonnet-4-5 prices`));
  assert.match(note, /counted by the safe profile, in a 8,000-token window/);

  // A setting typed into the page replays the card with it.
  await page.fill('#threshold', '7000');
  await page.waitForFunction(() => document.getElementById('cost').dataset.state === 'ready'
    && document.querySelector('#cost-legend li[data-policy="defaults"] .policy-explain').textContent.includes('past 7,000 tokens'), null, { timeout: 30000 });
  const again = await expected(SAMPLE, { ...PAGE, threshold: 7000, keepTail: 1400 });
  const after = await legend(page);
  again.results.forEach((r, i) => {
    if (r.turnsOverWindow === 0) assert.equal(after[i].total, usd(r.totalUsd), `${r.name} at 7,000: the page's figure is simulate()'s`);
  });
  assert.match(after[3].explain, /past 7,000 tokens/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the policies have plain names, a line each that says what they do, and no internal names', async () => {
  const { page, problems } = await openPage();
  const shown = await legend(page);
  assert.deepEqual(shown.map((p) => p.label), ['No management', 'Clear every turn', 'Server-side clearing', "midfold's Compactor"]);
  for (const p of shown) assert.ok(p.explain.length > 40 && p.explain.length < 260, `${p.label}: one line of explanation (${p.explain})`);
  assert.match(shown[1].explain, /before every call \(keeps the 3 most recent\) and folds the middle past 6,000 tokens/);
  assert.match(shown[3].explain, /in batches once past 4,800 tokens, at least 2,400 at a time/);
  const card = await page.textContent('#cost');
  assert.doesNotMatch(card, /\bseed\b/i);
  assert.deepEqual(problems, []);
  await page.close();
});

test('coinciding lines are told apart: a palette for colour-blind readers, a dash pattern and a marker each', async () => {
  const { page, problems } = await openPage();
  const svg = await chartSvg(page);
  for (const panel of [0, 1]) {
    const lines = polylines(svg, panel);
    assert.equal(lines.length, 4);
    assert.equal(new Set(lines.map((l) => `${l.stroke} ${l.dash}`)).size, 4, 'four styles');
    assert.equal(new Set(lines.map((l) => l.dash)).size, 4, 'four dash patterns (one solid)');
    for (const l of lines) assert.ok(OKABE_ITO.includes(l.stroke.toUpperCase()), `${l.stroke} is an Okabe-Ito colour`);
  }
  // Markers: shapes on each line, on different turns for different lines.
  assert.ok((svg.match(/<path d="M/g) || []).length >= 8, 'markers on the lines');
  // With the page's settings, the policies draw different lines (the Compactor folds).
  assert.ok(new Set(polylines(svg, 0).map((l) => l.points.join(' '))).size >= 3, 'at least three distinct context lines');
  // The legend keys are drawn in the chart's styles.
  const keys = await page.$$eval('#cost-legend .key-line line', (lines) => lines.map((l) => `${l.getAttribute('stroke')} ${l.getAttribute('stroke-dasharray') || ''}`));
  assert.deepEqual(keys, polylines(svg, 0).map((l) => `${l.stroke} ${l.dash}`));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a turn over the window is marked, and its policy is impossible, not an option', async () => {
  const { page, problems } = await openPage();
  const report = await expected(SAMPLE, PAGE);
  const none = report.results[0];
  assert.ok(none.firstTurnOverWindow >= 0, 'no management overflows the 8,000-token window on this sample');
  const shown = await legend(page);
  assert.equal(shown[0].state, 'impossible');
  assert.equal(shown[0].total, `impossible: turn ${none.firstTurnOverWindow + 1} of ${report.turns} sends `
    + `${none.perTurn[none.firstTurnOverWindow].context.toLocaleString('en-US')} tokens, over the 8,000-token window`);
  assert.doesNotMatch(shown[0].total, /\$/, 'no price for a policy the provider refuses');
  // The chart: its cost line stops before the refused turn, where a cross stands; the window is drawn.
  const svg = await chartSvg(page);
  assert.equal(polylines(svg, 1)[0].points.length, none.firstTurnOverWindow);
  assert.match(svg, /window 8k/);
  assert.match(svg, /✕: the first turn over the window, refused/);
  // The cheapest named is the cheapest that fits.
  const fits = report.results.map((r, i) => ({ r, i })).filter(({ r }) => r.turnsOverWindow === 0);
  const best = fits.reduce((a, b) => (b.r.totalUsd < a.r.totalUsd ? b : a));
  assert.ok(none.totalUsd < best.r.totalUsd, 'the refused policy would have looked cheapest');
  assert.ok((await page.textContent('#cost-note')).endsWith(`Cheapest within the window: ${shown[best.i].label} (${usd(best.r.totalUsd)}).`));

  // A window that holds the conversation: no management is priced like the others.
  await page.fill('#window', '200000');
  await page.waitForFunction(() => document.querySelector('#cost-legend li[data-policy="none"]').dataset.state === 'priced', null, { timeout: 30000 });
  await page.waitForSelector('#cost[data-state="ready"]', { timeout: 30000 });
  const wide = await expected(SAMPLE, { ...PAGE, window: 200000 });
  assert.equal((await legend(page))[0].total, usd(wide.results[0].totalUsd));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the pricing switch and a pasted conversation replay the card; the replay shows a busy state', async () => {
  const { page, problems } = await openPage();
  await page.locator('#cost').screenshot({ path: path.join(OUTPUT, 'demo-cost.png') });
  await page.selectOption('#cost-pricing', 'deepseek');
  await page.waitForFunction(() => document.getElementById('cost-note').textContent.includes('deepseek'), null, { timeout: 30000 });
  await page.waitForSelector('#cost[data-state="ready"]', { timeout: 30000 });
  const deepseek = await expected(SAMPLE, PAGE, 'deepseek');
  const shown = await legend(page);
  deepseek.results.forEach((r, i) => { if (r.turnsOverWindow === 0) assert.equal(shown[i].total, usd(r.totalUsd)); });

  // A pasted conversation gets its own replay; while it runs, the card says so.
  await page.click('#own summary');
  const pasted = SAMPLE.slice(0, 6);
  await page.fill('#paste', JSON.stringify(pasted));
  // (the replay of six messages may take less than a frame: every change of the card is recorded)
  await page.evaluate(() => {
    window.costStates = [];
    const card = document.getElementById('cost');
    new MutationObserver(() => window.costStates.push({
      busy: card.getAttribute('aria-busy'), shown: !document.getElementById('cost-busy').hidden,
      text: document.getElementById('cost-busy-text').textContent,
    })).observe(card, { attributes: true, subtree: true, childList: true, characterData: true });
  });
  await page.click('#load-paste');
  await page.waitForFunction((n) => document.getElementById('cost').dataset.turns === String(n)
    && document.getElementById('cost').dataset.state === 'ready', (await simulate(pasted, { policies: ['none'] })).turns, { timeout: 30000 });
  const states = await page.evaluate(() => window.costStates);
  assert.ok(states.some((s) => s.busy === 'true' && s.shown && /^Replaying /.test(s.text)), 'busy while it replays');
  assert.equal(await page.getAttribute('#cost', 'aria-busy'), 'false');
  assert.ok(await page.isHidden('#cost-busy'));
  assert.deepEqual(problems, []);
  await page.close();
});
