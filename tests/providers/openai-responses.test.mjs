// OpenAI Responses API input items (format "openai-responses"), and Chat Completions custom
// tool calls: read, estimated, serialized, micro-compacted, compacted and validated, on
// fixtures typed against the installed `openai` package, and sent through the real `openai`
// client to a mock Responses endpoint on 127.0.0.1 that rejects what the API rejects.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import OpenAI from 'openai';
import { Agent, run, tool, OpenAIResponsesModel, setTracingDisabled } from '@openai/agents';
import { z } from 'zod';
import {
  init, initFull, digest, detectFormat, estimateTokens, serialize, microCompact, validate, planCompaction, Compactor, MidfoldError,
} from '../../js/hosts/node.js';
import { agentRun } from '../fixtures/responses/agent-run.mjs';
import { customToolChat, PATCH } from '../fixtures/responses/custom-tool.chat.mjs';
import { encrypted, pngDataUrl } from '../fixtures/responses/bytes.mjs';
import { startMockResponses, checkInput } from '../helpers/mock-responses.mjs';
import { codePoints, marker } from '../helpers/fixtures.mjs';

await init();

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const at = (items, type, n = 0) => items.filter((i) => i.type === type)[n];
const index = (items, pred) => items.findIndex(pred);
const codes = (report) => report.problems.map((p) => [p.code, p.index]);
const ASSISTANT_SIDE = new Set(['reasoning', 'function_call', 'custom_tool_call', 'computer_call', 'web_search_call',
  'mcp_list_tools', 'mcp_approval_request', 'mcp_call']);
const assistantSide = (item) => (item.role ? item.role === 'assistant' : ASSISTANT_SIDE.has(item.type));

let api, client;
test.before(async () => {
  api = await startMockResponses();
  client = new OpenAI({ apiKey: 'test-key', baseURL: `${api.url}/v1`, maxRetries: 0 });
});
test.after(() => api.close());
const send = (input) => client.responses.create({ model: 'gpt-5', input, store: false, include: ['reasoning.encrypted_content'] });

test.describe('the fixtures', () => {
  test('type-check against openai\'s .d.ts (tsc --checkJs --strict), and a wrong shape fails', async () => {
    // Inside the repository, so that `openai` resolves from the checked files.
    await mkdir(path.join(ROOT, 'build'), { recursive: true });
    const dir = await mkdtemp(path.join(ROOT, 'build', 'responses-tsc-'));
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc', { paths: [ROOT] });
    const config = (files) => JSON.stringify({
      compilerOptions: {
        allowJs: true, checkJs: true, noEmit: true, strict: true, module: 'nodenext', moduleResolution: 'nodenext',
        target: 'es2022', skipLibCheck: true, types: ['node'], typeRoots: [path.join(ROOT, 'node_modules/@types')],
      },
      files,
    });
    const fixtures = ['agent-run.mjs', 'custom-tool.chat.mjs'].map((f) => path.join(ROOT, 'tests/fixtures/responses', f));
    const run = () => promisify(execFile)(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.json')], { cwd: ROOT, timeout: 120000 });
    try {
      await writeFile(path.join(dir, 'tsconfig.json'), config(fixtures));
      await run().catch((e) => assert.fail(`tsc failed:\n${e.stdout}${e.stderr}`));
      // The check bites: an output whose call_id is a number is no ResponseInputItem.
      await writeFile(path.join(dir, 'wrong.mjs'),
        "/** @type {import('openai/resources/responses/responses').ResponseInputItem[]} */\n" +
        "export const items = [{ type: 'function_call_output', call_id: 7, output: 'x' }];\n");
      await writeFile(path.join(dir, 'tsconfig.json'), config([path.join(dir, 'wrong.mjs')]));
      await assert.rejects(run(), (e) => /TS2322/.test(e.stdout));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('the agent run is accepted by the mock Responses endpoint through the real client', async () => {
    const response = await send(agentRun());
    assert.equal(response.output_text, 'ok');
    assert.equal(api.requests.at(-1).input.length, agentRun().length);
  });

  test('the mock endpoint rejects a function_call without its output (so the later checks can fail)', async () => {
    const broken = agentRun().filter((i) => !(i.type === 'function_call_output' && i.call_id === 'call_UmVhZENhcnRUcw'));
    await assert.rejects(send(broken), (e) => e instanceof OpenAI.BadRequestError && /No tool output found for function call call_UmVhZENhcnRUcw/.test(e.message));
    const lone = agentRun().slice(0, 3).concat([{ role: 'user', content: 'and?' }]);
    assert.match(checkInput(lone), /of type 'reasoning' was provided without its required following item/);
  });
});

test.describe('detectFormat and validate', () => {
  test('an agent run is "openai-responses" and valid', () => {
    assert.equal(detectFormat(agentRun()), 'openai-responses');
    assert.deepEqual(validate(agentRun()), { ok: true, format: 'openai-responses', problems: [] });
  });

  test('a list of only role-less items is a conversation', () => {
    const items = [
      { type: 'function_call', call_id: 'c1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { type: 'function_call_output', call_id: 'c1', output: '{"temp_c":-3}' },
    ];
    assert.equal(detectFormat(items), 'openai-responses');
    assert.equal(validate(items).ok, true);
  });

  test('easy input messages with a developer role stay Chat Completions without a Responses feature, and Responses with one', () => {
    const easy = [{ role: 'developer', content: 'Be brief.' }, { role: 'user', content: 'hi' }];
    assert.equal(detectFormat(easy), 'openai');
    assert.equal(detectFormat([...easy, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello', annotations: [] }] }]),
      'openai-responses');
  });

  test('an Anthropic Message object (type "message") with tool_use blocks stays Anthropic', () => {
    const history = [
      { role: 'user', content: 'List the files.' },
      { id: 'msg_01XFDUDYJgAACzvnptvVoYEL', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', stop_reason: 'tool_use',
        content: [{ type: 'tool_use', id: 'toolu_01', name: 'bash', input: { command: 'ls' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: 'a.txt' }] },
    ];
    assert.equal(detectFormat(history), 'anthropic');
  });

  test('a call without its output, and an output without its call', () => {
    const run = agentRun();
    const out = index(run, (i) => i.type === 'function_call_output' && i.call_id === 'call_UmVhZENhcnRUcw');
    const noOutput = run.filter((_, i) => i !== out);
    const call = index(noOutput, (i) => i.call_id === 'call_UmVhZENhcnRUcw');
    assert.deepEqual(codes(validate(noOutput)), [['call-without-result', call]]);
    const noCall = run.filter((_, i) => i !== call);
    assert.deepEqual(codes(validate(noCall)), [['result-without-call', out - 1]]);
  });

  test('an output before its call answers nothing; a call of another kind is no partner', () => {
    const swapped = [
      { type: 'function_call_output', call_id: 'c1', output: 'late' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
    ];
    assert.deepEqual(codes(validate(swapped)), [['result-without-call', 0], ['call-without-result', 1]]);
    const mismatched = [
      { type: 'custom_tool_call', call_id: 'c2', name: 'run_sql', input: 'SELECT 1' },
      { type: 'function_call_output', call_id: 'c2', output: '1' },
    ];
    assert.deepEqual(codes(validate(mismatched)), [['call-without-result', 0], ['result-without-call', 1]]);
  });

  test('a lone reasoning item before a missing call is reported', () => {
    const run = agentRun();
    const reasoning = index(run, (i) => i.type === 'reasoning');
    // The two parallel calls dropped: the reasoning item is now followed by their outputs.
    const lone = run.filter((i) => i.type !== 'function_call');
    const report = validate(lone);
    assert.deepEqual(codes(report), [['bad-content', reasoning], ['result-without-call', reasoning + 1], ['result-without-call', reasoning + 2]]);
    assert.match(report.problems[0].message, /reasoning item "rs_0a1f6c2e8d4b1f7a0068c1d2e3f4a5b6" is not followed by the item it produced/);
    assert.match(checkInput(lone), /No tool call found|of type 'reasoning' was provided without its required following item/);
  });

  test('approvals pair by approval_request_id; computer and local shell calls by call_id', () => {
    const run = agentRun();
    const req = index(run, (i) => i.type === 'mcp_approval_request');
    const noRequest = run.filter((_, i) => i !== req);
    assert.deepEqual(codes(validate(noRequest)), [['result-without-call', req]]);
    const shot = index(run, (i) => i.type === 'computer_call_output');
    assert.deepEqual(codes(validate(run.filter((_, i) => i !== shot))), [['call-without-result', shot - 1]]);
    const shell = [
      { type: 'local_shell_call', id: 'lsh_1', call_id: 'call_ls1', status: 'completed', action: { type: 'exec', command: ['ls', '-la'], env: {} } },
      { type: 'local_shell_call_output', id: 'call_ls1', output: 'total 8\ndrwxr-xr-x 2 app app 4096 .' },
    ];
    assert.equal(validate(shell).ok, true);
    assert.deepEqual(codes(validate(shell.slice(0, 1))), [['call-without-result', 0]]);
  });

  test('a repeated call_id and a call without one', () => {
    const items = [
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c1', output: 'x' },
      { type: 'function_call', name: 'g', arguments: '{}' },
    ];
    assert.deepEqual(codes(validate(items)), [['duplicate-id', 1], ['missing-id', 3]]);
  });

  test('an unknown item named like a call is kept and reported as unknown; one named like nothing is not a message', () => {
    const items = [{ role: 'user', content: 'scan the repo' }, { type: 'hologram_call', id: 'hc_1', query: 'src/**/*.ts' }];
    assert.deepEqual(codes(validate(items)), [['unknown-block', 1]]);
    assert.ok(serialize(items).endsWith('[assistant]\n{"type": "hologram_call", "id": "hc_1", "query": "src/**/*.ts"}'));
    assert.deepEqual(codes(validate([{ role: 'user', content: 'hi' }, { type: 'hologram' }])), [['not-a-message', 1]]);
    assert.throws(() => serialize([{ role: 'user', content: 'hi' }, { type: 'hologram' }]),
      (e) => e instanceof MidfoldError && e.position === 1);
    assert.equal(validate([{ role: 'user', content: 'hi' }, { type: 'item_reference', id: 'msg_abc' }], { format: 'openai-responses' }).ok, true);
  });
});

test.describe('estimateTokens', () => {
  test('encrypted reasoning is not priced: a ten times longer encrypted_content costs the same', () => {
    const run = agentRun(), longer = agentRun();
    for (const item of longer) if (item.type === 'reasoning') item.encrypted_content = encrypted(24000, 5);
    assert.equal(estimateTokens(longer), estimateTokens(run));
  });

  test('a screenshot is priced as an image: its size does not matter', () => {
    const bigger = agentRun();
    at(bigger, 'computer_call_output').output = { type: 'computer_screenshot', image_url: pngDataUrl(900000, 3) };
    assert.equal(estimateTokens(bigger), estimateTokens(agentRun()));
    const run = agentRun();
    const json = JSON.stringify(run).length;
    // ~185 KB of base64 screenshots and ~7 KB of encrypted reasoning: the estimate is what the model reads.
    assert.ok(estimateTokens(run) < json / 25, `${estimateTokens(run)} tokens for ${json} JSON chars`);
  });

  test('a compaction item is priced by the size of what it decrypts to (3/16 of a token a char)', () => {
    const base = [{ role: 'user', content: 'Continue with the migration plan.' }];
    const item = { type: 'compaction', id: 'cmp_1', encrypted_content: encrypted(12000, 9) };
    const added = estimateTokens([item, ...base]) - estimateTokens(base);
    const expected = (item.encrypted_content.length * 3) / 16;
    assert.ok(Math.abs(added - expected) < 10, `${added} vs ${expected}`);
  });

  test('a Responses request body counts its input items, instructions and tools', () => {
    const run = agentRun();
    const instructions = 'You are the on-call SRE assistant. Be precise.';
    const tools = [{ type: 'function', name: 'search_logs', description: 'Search service logs.', parameters: { type: 'object', properties: { service: { type: 'string' } } } }];
    assert.equal(estimateTokens({ model: 'gpt-5', input: run }), estimateTokens(run));
    const body = estimateTokens({ model: 'gpt-5', instructions, tools, input: run });
    const parts = estimateTokens(run) + estimateTokens(instructions) + estimateTokens(tools);
    assert.ok(body <= parts && body >= parts - 2, `${body} vs ${parts}`); // each call rounds up on its own
  });

  test('calls, outputs and built-in tools are priced by their text: the logs output dominates', () => {
    const run = agentRun();
    const logs = at(run, 'function_call_output').output;
    const without = run.filter((i) => i.output !== logs && i.call_id !== 'call_Q2hlY2tvdXRMb2dz');
    assert.ok(estimateTokens(run) - estimateTokens(without) > estimateTokens(logs) * 0.9);
  });
});

test.describe('serialize', () => {
  const transcript = serialize(agentRun());

  test('reads like a conversation: thinking, calls with their arguments, results by tool name', () => {
    assert.match(transcript, /^\[system\]\nYou are the on-call SRE assistant/);
    assert.ok(transcript.includes('[thinking] **Checking latency sources**'));
    assert.ok(transcript.includes('[tool_use:search_logs] {"service": "checkout-api", "since": "2026-11-24T14:00:00Z", "query": "route=POST /v1/checkout"}\n[tool_use:read_file] {"path": "services/checkout/src/cart.ts"}'));
    assert.ok(transcript.includes('[tool_result:read_file] import { db } from \'../db\';'));
    assert.ok(transcript.includes('[tool_use:web_search] {"type": "search", "query": "prisma findMany inside loop N+1'));
    assert.ok(transcript.includes('[tool_use:computer] {"type": "click", "button": "left", "x": 812, "y": 344}\n\n[user]\n[tool_result:computer] [image]'));
    assert.ok(transcript.includes('[tool_use:create_issue] {"team": "CHK"'));
    assert.ok(transcript.includes('[tool_result:create_issue]\n\n[user]\napproved'));
    assert.ok(transcript.includes("[tool_use:run_sql] SELECT count(*) AS calls"));
    assert.match(transcript, /\[user\]\nGreat\. Draft the postmortem timeline next\.$/);
  });

  test('holds no encrypted content and no base64 media', () => {
    assert.ok(!transcript.includes('gAAAAA'));
    assert.ok(!transcript.includes('data:image/png'));
    assert.ok(transcript.length < 25000, `${transcript.length} chars`);
  });

  test('parallel calls and their outputs are one section each', () => {
    const part = transcript.slice(transcript.indexOf('[thinking] **Checking'), transcript.indexOf('[thinking] **Spotting'));
    // One [user] section for both outputs, then the next turn's [assistant] header.
    assert.deepEqual(part.match(/\[(assistant|user)\]/g), ['[user]', '[assistant]']);
  });

  test('a compaction item shows as a marker, never its ciphertext', () => {
    const text = serialize([{ type: 'compaction', encrypted_content: encrypted(600, 4) }, { role: 'user', content: 'go on' }]);
    assert.equal(text, '[assistant]\n[compacted context]\n\n[user]\ngo on');
  });

  test('a failed MCP call shows its error, a string (openai 6) or an McpToolCallError object (openai 7), and the digest keeps it', async () => {
    await initFull();
    const failed = (error) => [
      { role: 'user', content: 'Open an issue for the checkout outage.' },
      { type: 'mcp_call', id: 'mcp_1', server_label: 'linear', name: 'create_issue', arguments: '{"team":"CHK","title":"Checkout outage"}',
        status: 'failed', output: null, error },
      { type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Linear refused it.', annotations: [] }] },
    ];
    const errors = [
      ['HTTP 502 Bad Gateway from linear-mcp', 'HTTP 502 Bad Gateway from linear-mcp'],
      [{ type: 'http_error', code: 502, message: 'Bad Gateway from linear-mcp' }, 'Bad Gateway from linear-mcp'],
      [{ type: 'mcp_protocol_error', code: -32602, message: 'Invalid params: team must be a key' }, 'Invalid params: team must be a key'],
      [{ type: 'mcp_tool_execution_error', content: [{ type: 'text', text: 'Team CHK not found' }] }, 'Team CHK not found'],
    ];
    const without = estimateTokens(failed(null));
    for (const [error, text] of errors) {
      const items = failed(error);
      assert.ok(serialize(items).includes(`[tool_error:create_issue] ${text}\n`), JSON.stringify(error));
      assert.ok(estimateTokens(items) > without, 'the error is priced');
      assert.deepEqual(validate(items).problems, []);
      assert.match(digest(items), new RegExp(`create_issue: ${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
  });
});

test.describe('microCompact', () => {
  test('old outputs become the marker string; calls, reasoning and screenshots stay; the result is accepted', async () => {
    const run = agentRun(), original = agentRun();
    const report = microCompact(run, { keepRecent: 1 });
    const logs = at(original, 'function_call_output', 0).output;
    const file = at(original, 'function_call_output', 1).output[0].text;
    assert.equal(at(run, 'function_call_output', 0).output, marker('search_logs', codePoints(logs)));
    // An output given as content parts becomes one string, which function_call_output accepts.
    assert.equal(at(run, 'function_call_output', 1).output, marker('read_file', codePoints(file)));
    assert.equal(at(run, 'mcp_call').output, marker('create_issue', codePoints(at(original, 'mcp_call').output)));
    assert.equal(report.cleared, 3);
    for (let i = 0; i < run.length; i++) {
      if (['function_call_output', 'mcp_call'].includes(run[i].type) && i !== index(run, (x) => x.type === 'custom_tool_call_output')) continue;
      assert.deepEqual(run[i], original[i], `item ${i} (${run[i].type || run[i].role}) is untouched`);
    }
    assert.deepEqual(validate(run).problems, []);
    assert.equal((await send(run)).output_text, 'ok');
  });

  test('is idempotent, and excludeTools keeps a tool\'s outputs', () => {
    const run = agentRun();
    microCompact(run, { keepRecent: 0 });
    const once = JSON.stringify(run);
    assert.equal(microCompact(run, { keepRecent: 0 }).cleared, 0);
    assert.equal(JSON.stringify(run), once);
    const kept = agentRun();
    microCompact(kept, { keepRecent: 0, excludeTools: ['search_logs'] });
    assert.equal(at(kept, 'function_call_output', 0).output, at(agentRun(), 'function_call_output', 0).output);
  });

  test('parallel outputs are one turn for keepRecent', () => {
    const run = agentRun().slice(0, 7).concat([{ role: 'user', content: 'next' }]);
    assert.equal(microCompact(run, { keepRecent: 1 }).cleared, 0);
  });
});

test.describe('compaction', () => {
  test('no cut separates a reasoning item from what follows it, or a call from its output', () => {
    const run = agentRun();
    const starts = new Set();
    for (let k = 0; k <= 12000; k += 50) starts.add(planCompaction(run, { keepTailTokens: k }).tailStart);
    assert.ok(starts.size >= 6, `only ${starts.size} distinct cuts`);
    for (const c of starts) {
      if (c === 0) continue;
      assert.notEqual(run[c - 1].type, 'reasoning', `cut ${c} right after a reasoning item`);
      const before = new Set(run.slice(0, c).map((i) => i.call_id).filter(Boolean));
      for (const item of run.slice(c)) assert.ok(!item.call_id || !before.has(item.call_id) || !item.type.endsWith('_output'),
        `cut ${c} splits ${item.call_id}`);
      // The model's items of one response stay together: no cut inside a run that began with reasoning.
      let j = c - 1;
      while (j >= 0 && assistantSide(run[j]) && run[j].type !== 'reasoning') j--;
      assert.ok(!(j >= 0 && run[j].type === 'reasoning' && assistantSide(run[c])), `cut ${c} inside a reasoned run`);
    }
  });

  test('the Compactor writes the summary as message items and leaves a list the API accepts', async () => {
    const run = agentRun();
    const seen = [];
    const compactor = new Compactor({
      summarize: async (request) => { seen.push(request.prompt); return 'Checkout p95 rose to 3 s from an N+1 promotions query in loadCart (#4821); CHK-1187 filed.'; },
      threshold: 100,
      keepTail: { tokens: 400 },
    });
    const report = await compactor.compact(run, { force: true });
    assert.equal(report.compacted, true);
    assert.ok(!seen[0].includes('gAAAAA') && !seen[0].includes('data:image/png'));
    assert.equal(run[0].role, 'developer');
    assert.deepEqual(run[1], {
      type: 'message', role: 'user',
      content: [{ type: 'input_text', text: '[Context Compressed]\nCheckout p95 rose to 3 s from an N+1 promotions query in loadCart (#4821); CHK-1187 filed.' }],
    });
    assert.deepEqual(validate(run).problems, []);
    assert.equal((await send(run)).output_text, 'ok');
  });

  test('an acknowledgement in output_text parts when the tail starts on the user side', async () => {
    const run = agentRun();
    const compactor = new Compactor({ summarize: async () => 'Summary.', threshold: 100, keepTail: { tokens: 0 } });
    await compactor.compact(run, { force: true });
    assert.deepEqual(run.slice(1).map((i) => [i.type, i.role, i.content[0].type]),
      [['message', 'user', 'input_text'], ['message', 'assistant', 'output_text'], ['message', 'user', 'input_text']]);
    assert.equal((await send(run)).output_text, 'ok');
  });

  test('a conversation of easy input messages gets easy input messages (string content, no type)', async () => {
    const run = [
      { role: 'developer', content: 'Answer briefly.' },
      { role: 'user', content: 'What is a B-tree? '.repeat(200) },
      { role: 'assistant', content: 'A balanced search tree with many keys per node. '.repeat(100) },
      { type: 'function_call', call_id: 'c9', name: 'lookup', arguments: '{"term":"B+ tree"}' },
      { type: 'function_call_output', call_id: 'c9', output: 'Leaves hold the records and are linked.' },
      { role: 'user', content: 'And a B+ tree?' },
    ];
    await new Compactor({ summarize: async () => 'B-trees explained.', threshold: 100, keepTail: { tokens: 0 } }).compact(run, { force: true });
    // The acknowledgement is always in parts with a status: the Agents SDK requires both.
    assert.deepEqual(run.slice(1, 3), [
      { role: 'user', content: '[Context Compressed]\nB-trees explained.' },
      { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: run[2].content[0].text, annotations: [] }] },
    ]);
    assert.equal((await send(run)).output_text, 'ok');
  });
});

test.describe('an OpenAI Agents SDK run (@openai/agents, its Responses model on the mock endpoint)', () => {
  const LOG = Array.from({ length: 60 }, (_, i) => `14:${String(20 + (i % 40)).padStart(2, '0')}:0${i % 10} POST /v1/checkout 200 duration_ms=${2800 + i * 13}`).join('\n');
  const FILE = 'for (const line of cart.lines) {\n  line.promotions = await db.promotion.findMany({ where: { sku: line.sku } });\n}';
  async function agentRunHistory() {
    setTracingDisabled(true); // nothing leaves 127.0.0.1
    let first = true; // the model's first answer calls both tools; the next one says "ok"
    api.script = () => (first && !(first = false) ? [
      { type: 'reasoning', id: 'rs_a1', summary: [{ type: 'summary_text', text: 'Read the logs and the cart loader.' }], encrypted_content: encrypted(900, 31) },
      { type: 'function_call', id: 'fc_a1', call_id: 'call_a1', name: 'search_logs', arguments: '{"service":"checkout-api"}', status: 'completed' },
      { type: 'function_call', id: 'fc_a2', call_id: 'call_a2', name: 'read_file', arguments: '{"path":"src/cart.ts"}', status: 'completed' },
    ] : undefined);
    const searchLogs = tool({ name: 'search_logs', description: 'Search service logs.', parameters: z.object({ service: z.string() }), execute: async () => LOG });
    const readFile = tool({ name: 'read_file', description: 'Read a file.', parameters: z.object({ path: z.string() }), execute: async () => FILE });
    const agent = new Agent({ name: 'SRE', instructions: 'Investigate before changing anything.', model: new OpenAIResponsesModel(client, 'gpt-5'), tools: [searchLogs, readFile] });
    const result = await run(agent, 'Why is checkout slow?');
    api.script = null;
    return { agent, history: result.history };
  }

  test('its history is read as openai-responses: valid, priced without the encrypted reasoning, readable', async () => {
    const { history } = await agentRunHistory();
    assert.deepEqual(history.map((i) => i.type), ['message', 'reasoning', 'function_call', 'function_call', 'function_call_result', 'function_call_result', 'message']);
    assert.equal(detectFormat(history), 'openai-responses');
    assert.deepEqual(validate(history).problems, []);
    const text = serialize(history);
    assert.ok(text.includes('[thinking] Read the logs and the cart loader.\n[tool_use:search_logs] {"service": "checkout-api"}'));
    assert.ok(text.includes(`[tool_result:read_file] ${FILE}`));
    assert.ok(!text.includes('gAAAAA'));
    const broken = history.filter((i) => !(i.type === 'function_call_result' && i.callId === 'call_a2'));
    assert.deepEqual(codes(validate(broken)), [['call-without-result', 3]]);
  });

  test('cleared and compacted, the SDK runs on with it and the endpoint accepts what it sends', async () => {
    const { agent, history } = await agentRunHistory();
    const items = [...history, { role: 'user', content: 'Which query should we fix first?' }];
    const report = microCompact(items, { keepRecent: 0 });
    assert.deepEqual(report.edits.map((e) => e.tool), ['search_logs', 'read_file']);
    assert.equal(items[4].output, marker('search_logs', codePoints(LOG)));
    const cleared = await run(agent, items.slice());
    assert.equal(cleared.finalOutput, 'ok');
    assert.equal(api.requests.at(-1).input.find((i) => i.type === 'function_call_output' && i.call_id === 'call_a1').output, marker('search_logs', codePoints(LOG)));

    await new Compactor({ summarize: async () => 'The N+1 promotions query in loadCart is the cause.', threshold: 10, keepTail: { tokens: 0 } })
      .compact(items, { force: true });
    // The tail is the user's easy input message: the summary follows it (a string, no tag).
    assert.deepEqual(items.map((i) => [i.type, i.role, typeof i.content]), [[undefined, 'user', 'string'], [undefined, 'assistant', 'object'], [undefined, 'user', 'string']]);
    const after = await run(agent, items);
    assert.equal(after.finalOutput, 'ok');
    assert.equal(checkInput(api.requests.at(-1).input), null);
    assert.equal(api.requests.at(-1).input[0].content, '[Context Compressed]\nThe N+1 promotions query in loadCart is the cause.');
  });
});

test.describe('Chat Completions custom tool calls', () => {
  test('keep their name and input in the transcript', () => {
    const text = serialize(customToolChat());
    assert.ok(text.includes(`[tool_use:apply_patch] ${PATCH}\n[tool_use:run_tests] {"path": "services/checkout"}`));
    assert.ok(text.includes('[tool_result:apply_patch] Done. Updated services/checkout/src/cart.ts (+2 -3).'));
    assert.ok(!text.includes('[tool_use:unknown]'));
  });

  test('are priced by their input, are valid, and their results clear by name', () => {
    const chat = customToolChat();
    assert.equal(detectFormat(chat), 'openai');
    assert.deepEqual(validate(chat).problems, []);
    const shorter = customToolChat();
    shorter[2].tool_calls[0].custom.input = '*** Begin Patch\n*** End Patch';
    assert.ok(estimateTokens(chat) - estimateTokens(shorter) > estimateTokens(PATCH) * 0.8);
    const report = microCompact(chat, { keepRecent: 0 });
    assert.deepEqual(report.edits.map((e) => e.tool), ['apply_patch', 'run_tests']);
    assert.equal(chat[3].content, marker('apply_patch', codePoints(customToolChat()[3].content)));
    assert.equal(chat[2].tool_calls[0].custom.input, PATCH); // the call is kept
    assert.deepEqual(validate(chat).problems, []);
  });
});
