// The demo page in real headless Chromium (Debian's /usr/bin/chromium, driven by
// playwright-core): served by scripts/serve.mjs under a strict CSP on 127.0.0.1, every
// sample compacted through the page, no console error, no request off loopback.
// Screenshots go to tests/output/ (git-ignored).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_PATH, ROOT, launchChromium, startDemoServer } from '../helpers/chromium.mjs';
import { init, estimateTokens, simulate, validate } from '../../js/hosts/node.js';
import { docSnippet } from '../helpers/doc-snippets.mjs';

const OUTPUT = path.join(ROOT, 'tests/output');
const SAMPLES = [
  { id: 'coding-anthropic', file: 'coding-session.anthropic.json', language: 'en' },
  { id: 'travel-zh', file: 'travel-planning.zh.anthropic.json', language: 'zh' },
  { id: 'coding-openai', file: 'coding-session.openai.json', language: 'en' },
];
const SECRET = 'sk-test-midfold-DO-NOT-STORE-4242';

let server;
let browser;
const offLoopback = [];

before(async () => {
  await init();
  mkdirSync(OUTPUT, { recursive: true });
  server = await startDemoServer();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
});

test('Debian Chromium is installed for the browser tests', () => {
  assert.ok(existsSync(CHROMIUM_PATH), `${CHROMIUM_PATH} is missing: run scripts/install-deps.sh as root `
    + '(it installs Debian\'s chromium with --no-install-recommends); the browser tests fail without it.');
});

/** A fresh tab on the demo, with its console errors, page errors and console text collected. */
async function openDemo({ expectSample = 'coding-anthropic' } = {}) {
  const page = await browser.context.newPage();
  const problems = [];
  const consoleText = [];
  page.on('console', (message) => {
    consoleText.push(message.text());
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const response = await page.goto(server.url);
  assert.equal(response.status(), 200);
  const csp = response.headers()['content-security-policy'];
  assert.ok(csp && !csp.includes("'unsafe-eval'"), `the page runs under a CSP without 'unsafe-eval': ${csp}`);
  await page.waitForSelector(`body[data-state="ready"][data-loaded="${expectSample}"]`, { timeout: 15000 });
  return { page, problems, consoleText };
}

async function meterTokens(page) {
  return Number(await page.getAttribute('#meter', 'data-tokens'));
}

/** The value of the result card's figure with this label ('Before', 'After', …), as a number. */
async function figureValue(page, label) {
  const text = await page.$$eval('#figures .figure', (figures, wanted) => {
    const f = figures.find((x) => x.querySelector('.figure-label').textContent === wanted);
    return f ? f.querySelector('.figure-value').textContent : null;
  }, label);
  return Number(String(text).replace(/,/g, ''));
}

/** estimateTokens(value, {profile}) in the page, through the library the page itself loaded. */
function estimateInPage(page, value, profile) {
  return page.evaluate(async ([v, p]) => {
    const midfold = await import('/js/hosts/browser.js');
    await midfold.init();
    return midfold.estimateTokens(v, { profile: p });
  }, [value, profile]);
}

async function conversation(page) {
  return JSON.parse(await page.textContent('#json'));
}

async function pickSample(page, id) {
  await page.click(`[data-sample="${id}"]`);
  await page.waitForSelector(`body[data-state="ready"][data-loaded="${id}"]`);
  assert.equal(await page.getAttribute(`[data-sample="${id}"]`, 'aria-pressed'), 'true');
}

async function compact(page) {
  await page.click('#compact');
  await page.waitForSelector('#result:not([hidden])');
  await page.waitForSelector('body[data-state="ready"]');
}

/** GET a raw path (no URL normalization) from the demo server. */
function rawGet(pathname) {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path: pathname }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
    }).on('error', reject);
  });
}

describe('scripts/serve.mjs', () => {
  test('serves the page with a strict CSP and exact MIME types', async () => {
    const page = await fetch(server.url);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type'), /^text\/html/);
    const csp = page.headers.get('content-security-policy');
    assert.ok(csp, 'a Content-Security-Policy header');
    assert.ok(!csp.includes("'unsafe-eval'"), `no 'unsafe-eval' in ${csp}`);
    assert.ok(!csp.includes("'unsafe-inline'"), `no 'unsafe-inline' in ${csp}`);
    assert.match(csp, /script-src 'self' 'wasm-unsafe-eval'/);
    assert.match(csp, /style-src 'self'/);
    const html = await page.text();
    assert.ok(!/<script(?![^>]*\bsrc=)[^>]*>/i.test(html), 'no inline script');
    assert.ok(!/<style|\sstyle=/i.test(html), 'no inline style');
    assert.match(html, /<link rel="icon" href="data:,">/);

    const wasm = await fetch(new URL('/wasm/midfold.wasm', server.url));
    assert.equal(wasm.headers.get('content-type'), 'application/wasm');
    await wasm.arrayBuffer();
    const js = await fetch(new URL('/js/hosts/browser.js', server.url));
    assert.match(js.headers.get('content-type'), /^text\/javascript/);
    await js.text();
    assert.equal((await rawGet('/')).status, 302);
  });

  test('serves nothing outside web-demo/, js/, wasm/ and docs/', async () => {
    const doc = await fetch(new URL('/docs/cost.md', server.url));
    assert.equal(doc.status, 200);
    assert.match(doc.headers.get('content-type'), /^text\/plain/);
    await doc.text();
    for (const p of ['/package.json', '/node_modules/playwright-core/package.json', '/js/%2e%2e/package.json',
      '/js/../package.json', '/web-demo/..%2fpackage.json', '/wasm/%00', '/src/', '/.git/config']) {
      assert.equal((await rawGet(p)).status, 404, p);
    }
    const post = await fetch(server.url, { method: 'POST', body: 'x' });
    assert.equal(post.status, 405);
    await post.text();
  });
});

describe('the demo page in Chromium', () => {
  before(async () => {
    browser = await launchChromium();
    // Nothing may leave loopback: every other request is recorded and refused.
    await browser.context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '127.0.0.1') {
        offLoopback.push(url.href);
        return route.abort('blockedbyclient');
      }
      return route.continue();
    });
  });

  test('compacts each bundled sample: the meter drops, the tail stays, the summary shows', async () => {
    const { page, problems } = await openDemo();
    for (const [n, sample] of SAMPLES.entries()) {
      if (n > 0) await pickSample(page, sample.id);
      const original = JSON.parse(readFileSync(path.join(ROOT, 'web-demo/samples', sample.file), 'utf8'));
      const before = await meterTokens(page);
      assert.ok(before > 1000, `${sample.id}: the meter shows the window (${before})`);
      assert.equal(await page.textContent('#total'), before.toLocaleString('en-US'));
      assert.equal(await page.locator('#messages > li').count(), original.length);
      const shown = await conversation(page);
      assert.deepEqual(shown, original, `${sample.id}: the page holds the sample as loaded`);
      // The meter and the Compactor use one profile, the Compactor's default.
      assert.equal(before, await estimateInPage(page, original, 'safe'), `${sample.id}: the meter is the 'safe' estimate`);

      await compact(page);

      const afterTokens = await meterTokens(page);
      assert.equal(await figureValue(page, 'Before'), before, `${sample.id}: the report's figures are the meter's`);
      assert.equal(await figureValue(page, 'After'), afterTokens, `${sample.id}: the report's figures are the meter's`);
      assert.ok(afterTokens < before / 2, `${sample.id}: the meter dropped from ${before} to ${afterTokens}`);
      const compacted = await conversation(page);
      assert.ok(compacted.length < original.length, `${sample.id}: fewer messages`);
      assert.deepEqual(compacted.at(-1), original.at(-1), `${sample.id}: the last message is unchanged`);
      assert.equal(await page.locator('#messages > li').count(), compacted.length);
      // System messages stay first, then the summary message.
      const systems = original.filter((m) => m.role === 'system');
      assert.deepEqual(compacted.slice(0, systems.length), systems);
      const summaryMessage = compacted[systems.length];
      assert.equal(summaryMessage.role, 'user');
      // (a string, or where nothing else kept shows the format, the one text block that carries it)
      const summaryText = typeof summaryMessage.content === 'string' ? summaryMessage.content : summaryMessage.content[0].text;
      assert.match(summaryText, /^\[Context Compressed\]\n/);

      assert.ok(await page.isVisible('#summary'), `${sample.id}: the summary is shown`);
      const summary = (await page.innerText('#summary')).trim();
      assert.ok(summary.length > 40, `${sample.id}: a real summary (${summary.length} chars)`);
      if (sample.language === 'zh') assert.match(summary, /[\u4e00-\u9fff]{4}/, 'a Chinese summary for the Chinese chat');
      assert.match(await page.textContent('#result-title'), /^Compacted · \d+ messages folded/);
      assert.equal(await page.locator('#figures .figure').count(), 5);
      // The transcript pane shows the compacted conversation.
      assert.match(await page.textContent('#transcript'), /\[user\]\n\[Context Compressed\]/);

      await page.screenshot({ path: path.join(OUTPUT, `demo-${sample.id}.png`), fullPage: true });
      if (n === 0) await page.screenshot({ path: path.join(OUTPUT, 'demo.png'), fullPage: true });
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('micro-compacts old tool results, and Reset restores the conversation', async () => {
    const { page, problems } = await openDemo();
    const original = await conversation(page);
    const before = await meterTokens(page);
    await page.click('#micro');
    await page.waitForSelector('#result[data-kind="micro"]');
    const afterTokens = await meterTokens(page);
    assert.ok(afterTokens < before, `the meter dropped from ${before} to ${afterTokens}`);
    const micro = await conversation(page);
    assert.equal(micro.length, original.length, 'no message removed');
    const text = JSON.stringify(micro);
    assert.match(text, /\[truncated: (bash|read_file|grep) result, \d+ chars\]/);
    assert.deepEqual(micro.slice(-4), original.slice(-4), 'recent turns untouched');
    assert.ok(await page.isHidden('#summary-box'));
    assert.equal(await page.locator('#messages .tag-truncated').count() > 0, true);

    await page.click('#reset');
    await page.waitForSelector('body[data-state="ready"]');
    assert.deepEqual(await conversation(page), original);
    assert.equal(await meterTokens(page), before);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('settings change the estimates and the plan live', async () => {
    const { page, problems } = await openDemo();
    await page.fill('#threshold', '20000');
    await page.waitForFunction(() => document.getElementById('meter').dataset.threshold === '20000');
    assert.equal(await page.locator('#meter.over').count(), 0, 'under a 20,000 threshold');
    await page.fill('#threshold', '6000');
    await page.waitForSelector('#meter.over');
    // (the plan comes from the page's worker: the rows follow once it has answered)
    await page.waitForSelector('body[data-state="ready"]');
    const folding = await page.locator('#messages li.zone-middle').count();
    await page.fill('#keep-tail', '4000');
    await page.waitForFunction((n) => document.querySelectorAll('#messages li.zone-middle').length < n, folding);
    await page.fill('#keep-tail', '1.5');
    await page.waitForSelector('#keep-tail[aria-invalid="true"]');
    await page.fill('#keep-tail', '');
    await page.waitForSelector('#keep-tail:not([aria-invalid])');
    await page.fill('#keep-recent', '-1');
    await page.waitForSelector('#keep-recent[aria-invalid="true"]');
    assert.match(await page.textContent('#status'), /Keep recent must be a whole number/);
    await page.fill('#keep-recent', '3');
    const profiles = await page.$$eval('#profile option', (options) => options.map((o) => o.value));
    assert.deepEqual([...profiles].sort(), ['bareagent', 'cl100k', 'claude', 'deepseek', 'o200k', 'qwen', 'safe'], `profiles: ${profiles}`);
    assert.equal(await page.inputValue('#profile'), 'safe', "the Compactor's default is selected");
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the selected profile is used for the meter, micro-compaction and the Compactor', async () => {
    const { page, problems } = await openDemo();
    const original = await conversation(page);
    assert.equal(await page.getAttribute('#meter', 'data-profile'), 'safe');
    for (const profile of ['bareagent', 'o200k', 'safe']) {
      await page.click('#reset');
      await page.selectOption('#profile', profile);
      await page.waitForFunction((p) => document.getElementById('meter').dataset.profile === p, profile);
      const before = await meterTokens(page);
      assert.equal(before, await estimateInPage(page, original, profile), `${profile}: the meter`);
      assert.match(await page.textContent('#of'), new RegExp(`\\b${profile} profile`));

      await page.click('#micro');
      await page.waitForSelector('#result[data-kind="micro"]');
      assert.equal(await figureValue(page, 'Before'), before, `${profile}: micro-compaction's figures`);
      assert.equal(await figureValue(page, 'After'), await meterTokens(page), `${profile}: micro-compaction's figures`);

      await page.click('#reset');
      await page.waitForFunction((n) => document.getElementById('meter').dataset.tokens === String(n), before);
      await compact(page);
      const after = await meterTokens(page);
      assert.equal(after, await estimateInPage(page, await conversation(page), profile), `${profile}: the meter after /compact`);
      assert.equal(await figureValue(page, 'Before'), before, `${profile}: the Compactor's figures`);
      assert.equal(await figureValue(page, 'After'), after, `${profile}: the Compactor's figures`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('loads a pasted conversation and explains bad input without a console error', async () => {
    const { page, problems } = await openDemo();
    await page.click('#own summary');
    await page.fill('#paste', '{"messages": [{"role": "user", "content": "hi"');
    await page.click('#load-paste');
    await page.waitForSelector('#status.error');
    assert.match(await page.textContent('#status'), /not valid JSON/);
    assert.equal(await page.getAttribute('body', 'data-loaded'), 'coding-anthropic', 'the old conversation stays');

    const pasted = {
      system: 'You are terse.',
      messages: [
        { role: 'user', content: 'Summarize the design doc.' },
        { role: 'assistant', content: 'It folds the resolved middle of a conversation.' },
        { role: 'user', content: 'And the tail?' },
      ],
    };
    await page.fill('#paste', JSON.stringify(pasted));
    await page.click('#load-paste');
    // (the rows follow the plan, which the page's worker works out)
    await page.waitForSelector('body[data-state="ready"][data-loaded="pasted"]');
    assert.equal(await page.locator('#messages > li').count(), 4);
    assert.deepEqual((await conversation(page))[0], { role: 'system', content: 'You are terse.' });
    assert.match(await page.textContent('#badges'), /openai/);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a pasted Claude Code session and an uploaded Codex CLI rollout load as the conversations they record', async () => {
    const { page, problems } = await openDemo();
    await page.click('#own summary');
    // A short session as Claude Code writes it: one assistant message split over two lines (thinking,
    // then its tool call), a subagent's line and a file snapshot left out.
    const base = { isSidechain: false, userType: 'external', cwd: '/home/dev/app', sessionId: 's-1', version: '2.0.31' };
    const lines = [
      { type: 'file-history-snapshot', messageId: 'u1', snapshot: {} },
      { ...base, type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: '修复 src/date.ts 里的时区错误' } },
      { ...base, type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'thinking', thinking: 'Read the file first.', signature: 'EqoBCkYIBxgCKkD' }] } },
      { ...base, type: 'assistant', uuid: 'a2', parentUuid: 'a1', message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'src/date.ts' } }] } },
      { ...base, isSidechain: true, type: 'user', uuid: 's1', parentUuid: 'a2', message: { role: 'user', content: 'subagent task' } },
      { ...base, type: 'user', uuid: 'u2', parentUuid: 'a2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'export const tz = "UTC";' }] } },
      { ...base, type: 'assistant', uuid: 'a3', parentUuid: 'u2', message: { id: 'msg_2', role: 'assistant', model: 'claude-sonnet-4-5', content: [{ type: 'text', text: 'The zone is hard-coded to UTC.' }] } },
    ];
    await page.fill('#paste', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    await page.click('#load-paste');
    await page.waitForSelector('body[data-state="ready"][data-loaded="pasted"]');
    assert.equal(await page.locator('#messages > li').count(), 4);
    assert.match(await page.textContent('#badges'), /anthropic/);
    assert.match(await page.textContent('#status'), /Read a Claude Code session: 4 messages, 2 log lines left out/);
    const shown = await conversation(page);
    assert.deepEqual(shown[1].content.map((b) => b.type), ['thinking', 'tool_use'], 'the two lines of one message are one message');
    assert.equal(shown[1].content[0].signature, 'EqoBCkYIBxgCKkD', 'the signature as written');

    const { codexLog } = await import('../fixtures/logs/build.mjs');
    const log = codexLog();
    await page.setInputFiles('#upload', { name: 'rollout-2026-11-27.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from(log) });
    await page.waitForSelector('body[data-state="ready"][data-loaded="uploaded"]', { timeout: 60000 });
    const { readAgentLog } = await import('../../js/hosts/node.js');
    const read = readAgentLog(log);
    assert.match(await page.textContent('#badges'), /openai-responses/);
    assert.match(await page.textContent('#status'), new RegExp(`Read a Codex CLI rollout: ${read.messages.length} messages`));
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('validation problems are a list that opens from the keyboard, and each leads to its message', async () => {
    const { page, problems } = await openDemo();
    assert.ok(await page.isHidden('#problems'), 'a valid sample has no problem list');
    // A session cut off mid-tool-loop: one of three parallel results never came back, and a
    // result answers a call id nobody made.
    const broken = JSON.parse(readFileSync(path.join(ROOT, 'web-demo/samples/coding-session.anthropic.json'), 'utf8'));
    broken[6].content = broken[6].content.slice(0, 2);
    broken[4].content[0].tool_use_id = 'toolu_01Hq7ZxV3kT99mN8pR2sLwY';
    const check = validate(broken);
    assert.ok(check.problems.length >= 2);
    await page.click('#own summary');
    await page.fill('#paste', JSON.stringify(broken));
    await page.click('#load-paste');
    await page.waitForSelector('body[data-state="ready"][data-loaded="pasted"]');
    assert.ok(await page.isVisible('#problems'));
    assert.equal(await page.getAttribute('#problems', 'open'), null, 'closed at first');
    assert.equal(await page.textContent('#problems-summary'), `${check.problems.length} problems the provider would refuse`);
    assert.ok(await page.isHidden('#problem-list'));
    // No tooltip: the list is in the page, and Enter or Space on its summary opens and closes it.
    assert.equal(await page.locator('#badges [title]').count(), 0);
    await page.focus('#problems-summary');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#problem-list li', { state: 'visible' });
    const items = await page.$$eval('#problem-list li', (lis) => lis.map((li) => li.textContent));
    assert.deepEqual(items, check.problems.map((p) => `message ${p.index}${p.code}${p.message}`));
    await page.keyboard.press('Space');
    await page.waitForSelector('#problem-list', { state: 'hidden' });
    await page.keyboard.press('Space');
    // Each problem leads to its message: the row opens, in view.
    await page.locator('#problem-list li').first().getByRole('button').press('Enter');
    const row = page.locator(`#messages > li[data-index="${check.problems[0].index}"]`);
    await row.locator('pre.msg-json').waitFor();
    assert.equal(await row.locator('.msg-row').getAttribute('aria-expanded'), 'true');
    assert.ok(await row.isVisible());
    assert.deepEqual(JSON.parse(await row.locator('pre.msg-json').textContent()), broken[check.problems[0].index]);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("the page says its profile is the Compactor's default, how far an estimate may be off, and where to read more", async () => {
    const { page, problems } = await openDemo();
    assert.equal(await page.inputValue('#profile'), 'safe');
    const note = (await page.textContent('#profile-note')).replace(/\s+/g, ' ');
    assert.match(note, /^The default profile, safe, is the Compactor's/);
    const margin = note.match(/Estimates err high: safe counts about ([\d.]+)× what the exact o200k tokenizer counts, and no long text measured under it; the o200k profile 1\.2× \(under on 0\.5 % of long strings of real agent sessions\)/);
    assert.ok(margin, note);
    // The same figure docs/estimator.md measured.
    const docs = readFileSync(path.join(ROOT, 'docs/estimator.md'), 'utf8');
    assert.equal(Number(margin[1]).toFixed(1), Number(docs.match(/\| `safe` \(the Compactor's default\) \| ([\d.]+)× \(never under\)/)[1]).toFixed(1));
    assert.equal(await page.$eval('#profile-note a', (a) => new URL(a.href).pathname), '/docs/estimator.md');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('an endpoint summarizer: the key goes only in the request header, never into storage or logs', async () => {
    const llm = await startMockEndpoint();
    try {
      const { page, problems, consoleText } = await openDemo();
      // OpenAI-compatible.
      await page.check('input[name="summarizer"][value="openai"]');
      await page.waitForSelector('#endpoint:not([hidden])');
      await page.fill('#base-url', `${llm.url}/v1`);
      await page.fill('#model', 'mock-model');
      await page.fill('#api-key', SECRET);
      const original = await conversation(page);
      await compact(page);
      assert.equal(llm.requests.length, 1);
      const [openai] = llm.requests;
      assert.equal(openai.path, '/v1/chat/completions');
      assert.equal(openai.headers.authorization, `Bearer ${SECRET}`);
      assert.equal(openai.body.model, 'mock-model');
      assert.ok(!JSON.stringify(openai.body).includes(SECRET));
      assert.match((await page.innerText('#summary')).trim(), /^Mock summary from openai/);
      assert.match(await page.textContent('#figures'), /mock-model at 127\.0\.0\.1/);
      assert.deepEqual((await conversation(page)).at(-1), original.at(-1));

      // Anthropic, called from the browser.
      await page.click('#reset');
      await page.check('input[name="summarizer"][value="anthropic"]');
      await page.fill('#base-url', llm.url);
      await compact(page);
      const anthropic = llm.requests[1];
      assert.equal(anthropic.path, '/v1/messages');
      assert.equal(anthropic.headers['x-api-key'], SECRET);
      assert.equal(anthropic.headers['anthropic-dangerous-direct-browser-access'], 'true');
      assert.match((await page.innerText('#summary')).trim(), /^Mock summary from anthropic/);

      // A failing model with no fallback: nothing changes, and the page says so.
      await page.click('#reset');
      await page.uncheck('#fallback');
      llm.fail = true;
      const beforeFailure = await conversation(page);
      await compact(page);
      assert.equal(await page.getAttribute('#result', 'data-kind'), 'none');
      assert.match(await page.textContent('#status'), /Not compacted/);
      assert.deepEqual(await conversation(page), beforeFailure);
      assert.ok(!(await page.textContent('body')).includes(SECRET), 'the key is not shown in any message');

      const stored = await page.evaluate(() => JSON.stringify({
        local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie,
      }));
      assert.ok(!stored.includes(SECRET), 'the key is not stored');
      assert.ok(!consoleText.some((t) => t.includes(SECRET)), 'the key is not logged');
      // The only console error allowed is Chromium's own line for the mock's HTTP 500.
      const unexpected = problems.filter((p) => !/Failed to load resource: the server responded with a status of 500/.test(p));
      assert.deepEqual(unexpected, []);
      await page.close();
    } finally {
      await llm.close();
    }
  });

  /** A fresh tab on a page of the demo's origin (under its CSP) where midfold is not loaded yet; every .wasm it fetches is listed. */
  async function openBlank() {
    const page = await browser.context.newPage();
    const problems = [];
    page.on('console', (message) => { if (message.type() === 'error') problems.push(`console error: ${message.text()}`); });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const wasm = [];
    page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname); });
    const response = await page.goto(new URL('/web-demo/style.css', server.url).href);
    assert.equal(response.status(), 200);
    assert.match(response.headers()['content-security-policy'], /script-src 'self' 'wasm-unsafe-eval'/);
    return { page, problems, wasm };
  }

  test("the README's Browser snippet runs as written, and fetches only the full module", async () => {
    const code = docSnippet('browser');
    // The bare specifier is what a bundler resolves; here the served file stands in for it.
    const body = code.replace(/^import \{([^}]*)\} from 'midfold';$/m, "const {$1} = await import('/js/hosts/browser.js');");
    assert.notEqual(body, code, 'the snippet imports from midfold');
    const { page, problems, wasm } = await openBlank();
    const messages = JSON.parse(readFileSync(path.join(ROOT, 'web-demo/samples/coding-session.anthropic.json'), 'utf8'));
    const result = await page.evaluate(`(async (messages, meter) => {\n${body}\nreturn { report, value: meter.value, messages };\n})(${JSON.stringify(messages)}, {})`);
    assert.equal(result.report.reason, 'below-threshold');
    // The Compactor's default is batched: below microTrigger (40,000) nothing is cleared, so
    // the request keeps its prefix (and a provider's prompt cache) byte for byte.
    assert.ok(result.report.tokensBefore < 40000);
    assert.equal(result.report.micro.cleared, 0, 'no micro-compaction below microTrigger');
    assert.equal(result.value, result.report.tokensAfter);
    assert.equal(result.value, result.report.tokensBefore);
    assert.deepEqual(result.messages, messages);
    assert.deepEqual(wasm, ['/wasm/midfold.wasm'], 'initFull() fetches the full module alone');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a page that compacts with its own summarizer fetches midfold-lite.wasm only; validate() says to call initFull()', async () => {
    const { page, problems, wasm } = await openBlank();
    const messages = JSON.parse(readFileSync(path.join(ROOT, 'web-demo/samples/coding-session.anthropic.json'), 'utf8'));
    const result = await page.evaluate(async (messages) => {
      const { init, estimateTokens, validate, Compactor } = await import('/js/hosts/browser.js');
      await init();
      const before = estimateTokens(messages, { profile: 'safe' });
      const summarize = async ({ messages: folded }) => `Worked through ${folded.length} earlier messages on the invoice export.`;
      const report = await new Compactor({ summarize, keepTail: { tokens: 0 } }).compact(messages, { force: true });
      let refused;
      try { validate(messages); } catch (e) { refused = { code: e.code, message: e.message }; }
      return { before, report, refused, length: messages.length };
    }, messages);
    assert.equal(result.before, estimateTokens(messages, { profile: 'safe' }), 'the same figure as Node, from the full module');
    assert.equal(result.report.reason, 'compacted');
    assert.ok(result.length < messages.length);
    assert.equal(result.refused.code, 'not-initialized');
    assert.match(result.refused.message, /initFull\(\)/);
    assert.deepEqual(wasm, ['/wasm/midfold-lite.wasm']);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('a page on initEstimator() fetches midfold-estimate.wasm alone; its Compactor fetches midfold-lite.wasm at its first fold', async () => {
    const { page, problems, wasm } = await openBlank();
    const messages = JSON.parse(readFileSync(path.join(ROOT, 'web-demo/samples/coding-session.anthropic.json'), 'utf8'));
    const result = await page.evaluate(async (messages) => {
      const { initEstimator, estimateTokens, EstimateCache, Compactor } = await import('/js/hosts/browser.js');
      await initEstimator();
      const cache = new EstimateCache({ profile: 'safe' });
      const before = estimateTokens(messages, { cache, profile: 'safe' });
      const summarize = async ({ messages: folded }) => `Worked through ${folded.length} earlier messages on the invoice export.`;
      const compactor = new Compactor({ summarize, threshold: 1000000, keepTail: { tokens: 0 } });
      const held = await compactor.compact(messages);
      const fetchedBeforeFold = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length;
      const report = await compactor.compact(messages, { force: true });
      return { before, held: held.reason, fetchedBeforeFold, report, length: messages.length };
    }, messages);
    assert.equal(result.before, estimateTokens(messages, { profile: 'safe' }), 'the same figure as Node, from the estimator alone');
    assert.equal(result.held, 'below-threshold');
    assert.equal(result.fetchedBeforeFold, 1, 'a check below the threshold fetches nothing more');
    assert.equal(result.report.reason, 'compacted');
    assert.ok(result.length < messages.length);
    assert.deepEqual(wasm, ['/wasm/midfold-estimate.wasm', '/wasm/midfold-lite.wasm']);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('simulate() on initEstimator() needs no more for no management, and fetches the lite module for a policy that clears', async () => {
    const { page, problems, wasm } = await openBlank();
    const messages = JSON.parse(readFileSync(path.join(ROOT, 'web-demo/samples/coding-session.anthropic.json'), 'utf8'));
    const options = { policies: ['none', 'micro-batched', 'micro-every-turn'] };
    const result = await page.evaluate(async ([messages, options]) => {
      const { initEstimator, simulate } = await import('/js/hosts/browser.js');
      await initEstimator();
      const alone = await simulate(messages, { policies: ['none'] });
      const fetchedAlone = performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length;
      return { alone, fetchedAlone, all: await simulate(messages, options) };
    }, [messages, options]);
    assert.equal(result.fetchedAlone, 1, 'no management is priced on the estimator alone');
    // The same report as Node's, which has the full module.
    assert.deepEqual(result.all, JSON.parse(JSON.stringify(await simulate(messages, options))));
    assert.deepEqual(result.alone, JSON.parse(JSON.stringify(await simulate(messages, { policies: ['none'] }))));
    assert.deepEqual(wasm, ['/wasm/midfold-estimate.wasm', '/wasm/midfold-lite.wasm']);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('init() after initEstimator() fetches the lite module in its place; initFull() after both, the full one', async () => {
    const { page, problems, wasm } = await openBlank();
    const messages = JSON.parse(readFileSync(path.join(ROOT, 'web-demo/samples/coding-session.anthropic.json'), 'utf8'));
    const result = await page.evaluate(async (messages) => {
      const midfold = await import('/js/hosts/browser.js');
      const refusal = (fn) => { try { fn(); return null; } catch (e) { return e.message; } };
      await Promise.all([midfold.initEstimator(), midfold.initEstimator()]);
      const onEstimator = refusal(() => midfold.microCompact(structuredClone(messages)));
      await midfold.init();
      const cleared = midfold.microCompact(structuredClone(messages), { keepRecent: 1 }).cleared;
      const onLite = refusal(() => midfold.validate(messages));
      await midfold.initFull();
      await midfold.initEstimator(); // (a higher tier is in use: nothing is fetched)
      return { onEstimator, cleared, onLite, ok: midfold.validate(messages).ok, tokens: midfold.estimateTokens(messages) };
    }, messages);
    assert.match(result.onEstimator, /^microCompact\(\) needs midfold's compaction, .*: await init\(\) first$/);
    assert.ok(result.cleared > 0);
    assert.match(result.onLite, /^validate\(\) needs midfold's full module, .*: await initFull\(\) first$/);
    assert.equal(result.ok, true);
    assert.equal(result.tokens, estimateTokens(messages));
    assert.deepEqual(wasm, ['/wasm/midfold-estimate.wasm', '/wasm/midfold-lite.wasm', '/wasm/midfold.wasm']);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('the page fetches midfold.wasm; the memory module only at the first memory command, under the CSP', async () => {
    const { page, problems } = await openDemo();
    const wasm = [];
    page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(new URL(r.url()).pathname); });
    // The demo loaded midfold before these listeners: a fresh page load is watched from its start.
    await page.reload();
    await page.waitForSelector('body[data-state="ready"]');
    await page.waitForSelector('#cost[data-state="ready"]', { timeout: 30000 });
    // The page, and each of its two workers (the analysis and the cost replay), load the full module.
    assert.deepEqual(wasm, ['/wasm/midfold.wasm', '/wasm/midfold.wasm', '/wasm/midfold.wasm'], 'loading the page fetches the main module only');
    const result = await page.evaluate(async () => {
      const midfold = await import('/js/hosts/browser.js');
      const tool = midfold.createMemoryTool({ store: midfold.memoryStore() });
      const created = await tool.execute({ command: 'create', path: '/memories/plan.md', file_text: 'step 1\n' });
      const viewed = await tool.execute({ command: 'view', path: '/memories' });
      return { created, viewed };
    });
    assert.deepEqual(result.created, { content: 'File created successfully at: /memories/plan.md', isError: false });
    assert.equal(result.viewed.isError, false);
    assert.match(result.viewed.content, /\/memories\/plan\.md/);
    assert.deepEqual(wasm, ['/wasm/midfold.wasm', '/wasm/midfold.wasm', '/wasm/midfold.wasm', '/wasm/midfold-memory.wasm'], 'the memory module, once, at its first command');
    assert.deepEqual(problems, []);
    await page.close();
  });

  test('no request left 127.0.0.1', () => {
    assert.deepEqual(offLoopback, []);
  });
});

/** A tiny OpenAI- and Anthropic-compatible endpoint on 127.0.0.1 that allows the page's origin (CORS). */
function startMockEndpoint() {
  const requests = [];
  const state = { fail: false };
  const srv = http.createServer((req, res) => {
    const cors = {
      'access-control-allow-origin': req.headers.origin || '*',
      'access-control-allow-methods': 'POST, OPTIONS',
      'access-control-allow-headers': req.headers['access-control-request-headers'] || 'content-type',
      'access-control-max-age': '600',
    };
    if (req.method === 'OPTIONS') { res.writeHead(204, cors); res.end(); return; }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => { body += chunk; });
    req.on('end', () => {
      const api = req.url === '/v1/messages' ? 'anthropic' : 'openai';
      requests.push({ path: req.url, headers: req.headers, body: JSON.parse(body) });
      if (state.fail) {
        res.writeHead(500, { ...cors, 'content-type': 'application/json' });
        res.end('{"error":{"message":"mock failure"}}');
        return;
      }
      const text = `Mock summary from ${api}: the user asked to fix failing tests after npm update.`;
      const answer = api === 'anthropic'
        ? { type: 'message', role: 'assistant', content: [{ type: 'text', text }] }
        : { choices: [{ index: 0, message: { role: 'assistant', content: text } }] };
      res.writeHead(200, { ...cors, 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  return new Promise((resolve) => {
    srv.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${srv.address().port}`,
        requests,
        set fail(value) { state.fail = value; },
        close: () => new Promise((done) => { srv.closeAllConnections(); srv.close(() => done()); }),
      });
    });
  });
}
