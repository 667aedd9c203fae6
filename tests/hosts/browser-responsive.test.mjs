// The demo page on a long conversation and on a phone, in real headless Chromium:
// - a 2 MB conversation pasted through the clipboard (a real Ctrl+V) and loaded keeps every
//   main-thread task under 200 ms (PerformanceObserver 'longtask'; on a busy machine, under
//   100 ms of CPU in Chromium's trace), the replay of its cost included, and the page shows
//   it with the library's own figures;
// - at 390 px the cost card's legend is readable (text of 11 px or more, nothing overlapping,
//   all inside the viewport) and its chart is drawn at the card's width, never scaled down;
//   a tap opens the list of validation problems;
// - screenshots at 1440 and 390 px (a bundled sample, the 2 MB paste, the cost card) go to
//   tests/output/ (git-ignored), to be looked at.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, launchChromium, startDemoServer } from '../helpers/chromium.mjs';
import { longSession } from '../helpers/long-session.mjs';
import { init, estimateTokens, simulate } from '../../js/hosts/node.js';

const OUTPUT = path.join(ROOT, 'tests/output');
const LONG_TASK_MS = 200;
// A coding agent's session of 510 requests (parallel tool calls, code, test logs, Chinese
// turns): 2,041 messages, 2.0 MB of JSON.
const HISTORY = longSession({ turns: 510, format: 'anthropic' }).calls.flat();
const TEXT = JSON.stringify(HISTORY);
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

let server;
before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  await init();
  server = await startDemoServer();
});
after(async () => { if (server) await server.close(); });

/** A tab on the demo that records its long tasks (from its very start) and its errors. */
async function openDemo(browser) {
  const page = await browser.context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push({ start: Math.round(e.startTime), ms: Math.round(e.duration) });
    }).observe({ type: 'longtask', buffered: true });
  });
  await page.goto(server.url);
  await page.waitForSelector('body[data-state="ready"][data-loaded="coding-anthropic"]', { timeout: 30000 });
  await page.waitForSelector('#cost[data-state="ready"]', { timeout: 30000 });
  return { page, problems };
}

/**
 * Records what the renderers' main threads spend on each task, in CPU time, while `run()`
 * runs (Chromium's own tracing, category toplevel): the long tasks the page's observer sees
 * are wall-clock time, which a machine busy with other work stretches.
 * @returns {Promise<number[]>} the CPU milliseconds of each main-thread task over 10 ms
 */
async function mainThreadCpu(browser, page, run) {
  const cdp = await browser.context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => { for (const e of value) if (e.ph === 'M' || e.name === 'ThreadControllerImpl::RunTask') events.push(e); });
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: 'toplevel', transferMode: 'ReportEvents' });
  try {
    await run();
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  return events.filter((e) => e.ph === 'X' && main.has(`${e.pid}:${e.tid}`) && e.tdur > 10000).map((e) => Math.round(e.tdur / 1000));
}

/** Puts TEXT on the clipboard, from the page (the test's doing, not the page's). */
async function copyLong(browser, page) {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.origin });
  await page.evaluate((text) => navigator.clipboard.writeText(text), TEXT);
}

/** Pastes the clipboard into the page's field with a real Ctrl+V and loads it; resolves when the page and the card are done. */
async function pasteLong(page) {
  await page.click('#own summary');
  await page.focus('#paste');
  await page.evaluate(() => { window.longTasks.length = 0; });
  await page.keyboard.press('Control+V');
  await page.waitForFunction(() => document.getElementById('paste').value.length > 0);
  await page.click('#load-paste');
  await page.waitForSelector('body[data-state="ready"][data-loaded="pasted"]', { timeout: 120000 });
  await page.waitForFunction((n) => {
    const card = document.getElementById('cost');
    return card.dataset.state === 'ready' && card.dataset.turns === String(n);
  }, (await simulate(HISTORY, { policies: ['none'] })).turns, { timeout: 300000, polling: 250 });
  // Entries reach the observer after their task: give it a frame and a turn.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
  return page.evaluate(() => window.longTasks);
}

describe('a 2 MB paste', () => {
  test(`no main-thread task over ${LONG_TASK_MS} ms from the paste to the last line of the cost chart`, async () => {
    assert.ok(TEXT.length > 2e6, `the paste is 2 MB (${TEXT.length} characters)`);
    const browser = await launchChromium({ viewport: DESKTOP });
    const attempts = [];
    try {
      // Up to three loads; one of them must keep every task the page's observer sees under
      // the bound. On a machine busy with other work a task's wall time can be several times
      // the page's own work, so a load whose long tasks were each under half the bound in CPU
      // time (Chromium's trace of the same load) counts too: a page that does too much in one
      // task is over it in both.
      for (let attempt = 0; attempt < 3; attempt++) {
        const { page, problems } = await openDemo(browser);
        let tasks;
        await copyLong(browser, page);
        const cpu = await mainThreadCpu(browser, page, async () => { tasks = await pasteLong(page); });
        const a = { wall: Math.max(0, ...tasks.map((t) => t.ms)), cpu: Math.max(0, ...cpu), list: tasks.map((t) => t.ms).join(', ') };
        attempts.push(a);
        if (attempt === 0) {
          // The page shows all of it, with the library's own figures.
          assert.equal(Number(await page.getAttribute('#meter', 'data-tokens')), estimateTokens(HISTORY, { profile: 'safe' }));
          assert.equal(await page.locator('#cost-legend li[data-state="priced"], #cost-legend li[data-state="impossible"]').count(), 4);
          assert.ok((await page.inputValue('#paste')).length < 10000, 'the field holds the start of the paste, not all of it');
          // The Messages list shows it a page of 200 at a time.
          assert.equal(await page.locator('#messages > li').count(), 200);
          assert.equal(await page.textContent('#page-info'), `Messages 0–199 of ${HISTORY.length.toLocaleString('en-US')}`);
          await page.click('#page-next');
          await page.waitForSelector('#messages > li[data-index="200"]');
          assert.equal(await page.textContent('#page-info'), `Messages 200–399 of ${HISTORY.length.toLocaleString('en-US')}`);
          assert.deepEqual(problems, []);
        }
        await page.close();
        if (a.wall < LONG_TASK_MS || a.cpu < LONG_TASK_MS / 2) break;
      }
    } finally {
      await browser.close();
    }
    console.log(`# the 2 MB paste, per load: longest task ${attempts.map((a) => `${a.wall} ms (${a.cpu} ms of CPU) [${a.list}]`).join('; ')}`);
    assert.ok(attempts.some((a) => a.wall < LONG_TASK_MS || a.cpu < LONG_TASK_MS / 2),
      `every load had a main-thread task over ${LONG_TASK_MS} ms: ${attempts.map((a) => `${a.wall} ms, ${a.cpu} ms of CPU`).join('; ')}`);
  });
});

describe('on a 390 px phone', () => {
  let browser;
  before(async () => { browser = await launchChromium({ viewport: PHONE, hasTouch: true }); });
  after(async () => { if (browser) await browser.close(); });

  test('the cost legend is readable: 11 px or more, nothing overlapping, inside the viewport', async () => {
    const { page, problems } = await openDemo(browser);
    await page.locator('#cost').scrollIntoViewIfNeeded();
    const boxes = await page.$$eval('#cost-legend li', (items) => items.map((li) => ({
      policy: li.dataset.policy,
      li: li.getBoundingClientRect().toJSON(),
      parts: [...li.children].map((c) => ({
        name: c.className.baseVal ?? c.className,
        rect: c.getBoundingClientRect().toJSON(),
        font: parseFloat(getComputedStyle(c).fontSize),
      })),
    })));
    assert.equal(boxes.length, 4);
    const overlap = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
    for (const item of boxes) {
      assert.ok(item.li.left >= 0 && item.li.right <= PHONE.width, `${item.policy}: inside the viewport (${item.li.left}–${item.li.right})`);
      for (const part of item.parts) {
        assert.ok(part.font >= 11, `${item.policy} ${part.name}: ${part.font} px`);
        assert.ok(part.rect.left >= 0 && part.rect.right <= PHONE.width, `${item.policy} ${part.name}: inside the viewport`);
        assert.ok(part.rect.width > 0 && part.rect.height > 0, `${item.policy} ${part.name}: shown`);
      }
      for (let i = 0; i < item.parts.length; i++) {
        for (let j = i + 1; j < item.parts.length; j++) {
          assert.ok(!overlap(item.parts[i].rect, item.parts[j].rect), `${item.policy}: ${item.parts[i].name} and ${item.parts[j].name} overlap`);
        }
      }
    }
    for (let i = 1; i < boxes.length; i++) assert.ok(!overlap(boxes[i - 1].li, boxes[i].li), `${boxes[i - 1].policy} and ${boxes[i].policy} overlap`);

    // The chart is drawn at the card's width and shown at its own size, so its 11 px text stays 11 px.
    const chart = await page.$eval('#cost-chart > svg', (svg) => ({
      drawn: Number(svg.getAttribute('width')), shown: svg.getBoundingClientRect().width,
      right: svg.getBoundingClientRect().right, box: svg.parentElement.clientWidth,
      sizes: [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize)),
      texts: [...svg.querySelectorAll('text')].map((t) => {
        const box = t.getBBox();
        return { text: t.textContent, left: box.x, right: box.x + box.width, top: box.y, bottom: box.y + box.height };
      }),
    }));
    assert.equal(chart.shown, chart.drawn, 'not scaled');
    assert.equal(chart.drawn, chart.box, 'drawn at the card\'s width');
    assert.ok(chart.right <= PHONE.width);
    assert.ok(chart.sizes.length > 10 && chart.sizes.every((v) => v >= 11), `SVG text sizes ${[...new Set(chart.sizes)]}`);
    // Its text, as the browser lays it out: inside the picture, no two labels on top of each other.
    for (const t of chart.texts) assert.ok(t.left >= 0 && t.right <= chart.drawn, `"${t.text}" inside the chart (${t.left}–${t.right} of ${chart.drawn})`);
    for (let i = 0; i < chart.texts.length; i++) {
      for (let j = i + 1; j < chart.texts.length; j++) {
        assert.ok(!overlap(chart.texts[i], chart.texts[j]), `"${chart.texts[i].text}" and "${chart.texts[j].text}" overlap`);
      }
    }
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= PHONE.width, 'no sideways scrolling');
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('on a 390 px phone, by touch', () => {
  let browser;
  before(async () => { browser = await launchChromium({ viewport: PHONE, hasTouch: true }); });
  after(async () => { if (browser) await browser.close(); });

  test('a tap opens the list of validation problems, and a tap on one opens its message', async () => {
    const { page, problems } = await openDemo(browser);
    // Of three parallel tool calls, one result never came back (an interrupted session).
    const broken = structuredClone(HISTORY.slice(0, 40));
    const cut = broken.findIndex((m) => Array.isArray(m.content) && m.content.filter((b) => b.type === 'tool_result').length > 1);
    broken[cut].content = broken[cut].content.slice(1);
    await page.tap('#own summary');
    await page.fill('#paste', JSON.stringify(broken));
    await page.tap('#load-paste');
    await page.waitForSelector('body[data-state="ready"][data-loaded="pasted"]');
    assert.ok(await page.isHidden('#problem-list'));
    await page.tap('#problems-summary');
    await page.waitForSelector('#problem-list li', { state: 'visible' });
    assert.match(await page.textContent('#problem-list li'), new RegExp(`^message ${cut - 1}call-without-result`));
    const box = await page.locator('#problems-summary').boundingBox();
    assert.ok(box.height >= 32 && box.x >= 0 && box.x + box.width <= PHONE.width, `a touch target inside the screen (${JSON.stringify(box)})`);
    await page.locator('#problem-list li').first().getByRole('button').tap();
    await page.waitForSelector(`#messages > li[data-index="${cut - 1}"] pre.msg-json`, { state: 'visible' });
    await page.tap('#problems-summary');
    await page.waitForSelector('#problem-list', { state: 'hidden' });
    assert.deepEqual(problems, []);
    await page.close();
  });
});

describe('screenshots', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`at ${viewport.width} px: a bundled sample, the cost card, a 2 MB paste (tests/output/)`, async () => {
      const browser = await launchChromium({ viewport });
      try {
        const { page, problems } = await openDemo(browser);
        const name = (what) => path.join(OUTPUT, `demo-${viewport.width}-${what}.png`);
        await page.screenshot({ path: name('sample'), fullPage: true });
        await page.locator('#cost').screenshot({ path: name('cost') });
        await copyLong(browser, page);
        await pasteLong(page);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: name('paste-2mb') });
        await page.locator('#cost').screenshot({ path: name('paste-2mb-cost') });
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= viewport.width, 'no sideways scrolling');
        assert.deepEqual(problems, []);
        await page.close();
      } finally {
        await browser.close();
      }
    });
  }
});
