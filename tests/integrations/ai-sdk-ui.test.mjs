// AI SDK UIMessage ('ai-sdk-ui', ai 6 and ai 7): the state a chat UI holds. The
// conversations are built by the real packages — streamText with the mock models,
// toUIMessageStream and readUIMessageStream, every intermediate state kept — and what
// midfold gives back goes through the installed validateUIMessages and
// convertToModelMessages.
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import { init, estimateTokens, serialize, validate, detectFormat, microCompact, planMicroCompact, Compactor } from '../../js/hosts/node.js';
import { VERSIONS, chatSession, skipReason, pngBytes, b64, load } from '../helpers/ai-sdk-flows.mjs';

await init();

const UNFINISHED = new Set(['input-streaming', 'input-available', 'approval-requested', 'approval-responded']);
const toolParts = (msgs) => msgs.flatMap((m, i) => m.parts.map((p, j) => ({ p, i, j })).filter(({ p }) => p.type.startsWith('tool-') || p.type === 'dynamic-tool'));

for (const v of VERSIONS) {
  describe(`${v.name}: UIMessage`, { skip: skipReason(v) || false }, () => {
    test('a chat UI state is detected as ai-sdk-ui, validates, and reads as a transcript', async () => {
      const s = await chatSession(v);
      assert.equal(detectFormat(s.messages), 'ai-sdk-ui');
      assert.deepStrictEqual(validate(s.messages).problems, []);
      const text = serialize(s.messages);
      assert.match(text, /^\[user\]\n登录页在手机上溢出了/);
      assert.match(text, /\[assistant\]\n\[thinking\] Read src\/login\.tsx first\.\n\[tool_use:read_file\] \{"path": "src\/login\.tsx"\}\n\[tool_result:read_file\] \{"path": "src\/login\.tsx", "content": "import/);
      assert.match(text, /\[tool_use:delete_file\] \{"path": "src\/login\.old\.css"\}\n\[approval_request:delete_file\]$/);
      assert.ok(!text.includes('step-start'));
    });

    test('a toolCallId used by two parts is a duplicate-id problem: it converts into tool calls the provider cannot tell apart', async () => {
      const s = await chatSession(v);
      const messages = structuredClone(s.messages);
      const at = messages.findIndex((m) => m.role === 'assistant' && m.parts.some((p) => p.type === 'tool-read_file' && p.state === 'output-available'));
      const copy = { ...structuredClone(messages[at]), id: `${messages[at].id}-again` };
      messages.splice(at + 1, 0, { id: 'u-between', role: 'user', parts: [{ type: 'text', text: '再读一遍同一个文件。' }] }, copy);
      const id = copy.parts.find((p) => p.type === 'tool-read_file').toolCallId;
      const problems = validate(messages).problems;
      assert.ok(problems.some((p) => p.code === 'duplicate-id' && p.index === at + 2 && p.message.includes(id)), JSON.stringify(problems));
      const model = await s.ai.convertToModelMessages(messages);
      const calls = model.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p) => p.type === 'tool-call' && p.toolCallId === id);
      assert.ok(calls.length >= 2, 'the converted prompt repeats the call id');
    });

    test('every mid-stream state is read; unfinished parts are never edited by microCompact', async () => {
      const s = await chatSession(v);
      const history = s.messages.slice(0, -1);
      const states = new Set();
      for (const snap of s.snapshots) {
        const messages = [...structuredClone(history), structuredClone(snap)];
        assert.equal(detectFormat(messages), 'ai-sdk-ui');
        assert.deepStrictEqual(validate(messages).problems, []);
        assert.ok(estimateTokens(messages) > 0);
        const unfinished = toolParts(messages).filter(({ p }) => UNFINISHED.has(p.state)).map(({ p, i, j }) => [i, j, JSON.stringify(p)]);
        for (const { p } of toolParts(messages)) states.add(p.state);
        microCompact(messages, { keepRecent: 0 });
        for (const [i, j, before] of unfinished) assert.equal(JSON.stringify(messages[i].parts[j]), before);
        await s.ai.validateUIMessages({ messages });
      }
      for (const state of ['input-streaming', 'input-available', 'approval-requested', 'output-available']) assert.ok(states.has(state), state);
    });

    test("micro-compaction replaces an old output-available part's output with the marker; ai accepts the result", async () => {
      const s = await chatSession(v);
      const messages = structuredClone(s.messages);
      const report = microCompact(messages, { keepRecent: 1 });
      assert.equal(report.cleared, 2);
      const [first, second, third] = toolParts(messages).filter(({ p }) => p.type === 'tool-read_file');
      assert.equal(first.p.state, 'output-available');
      assert.match(first.p.output, /^\[truncated: read_file result, \d+ chars\]$/);
      assert.match(second.p.output, /^\[truncated: read_file result, \d+ chars\]$/);
      assert.equal(typeof third.p.output, 'object', 'the latest turn stays whole');
      assert.deepStrictEqual(first.p.input, { path: 'src/login.tsx' });
      await s.ai.validateUIMessages({ messages });
      const model = await s.ai.convertToModelMessages(messages);
      const results = model.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p) => p.type === 'tool-result');
      assert.deepStrictEqual(results[0].output, { type: 'text', value: first.p.output });
      assert.ok(s.ai.modelMessageSchema.array().safeParse(model).success);
      // Idempotent: a second run changes nothing.
      assert.equal(planMicroCompact(messages, { keepRecent: 1 }).edits.length, 0);
    });

    test('compaction writes the summary as a UIMessage with an id and summary metadata; the pending approval stays', async () => {
      const s = await chatSession(v);
      const messages = structuredClone(s.messages);
      const last = messages.at(-1);
      const report = await new Compactor({ summarize: async () => '用户在修复移动端登录页溢出：login.tsx 正常，login.css 固定宽度 480px。', keepTail: { tokens: 0 } })
        .compact(messages, { force: true });
      assert.equal(report.compacted, true);
      const [summary, ack] = messages;
      assert.equal(summary.role, 'user');
      assert.equal(typeof summary.id, 'string');
      assert.ok(summary.id.length > 8);
      assert.deepStrictEqual(summary.metadata, { midfold: { summary: true } });
      assert.deepStrictEqual(summary.parts, [{ type: 'text', text: '[Context Compressed]\n用户在修复移动端登录页溢出：login.tsx 正常，login.css 固定宽度 480px。' }]);
      assert.equal(ack.role, 'assistant');
      assert.notEqual(ack.id, summary.id);
      assert.deepStrictEqual(messages.at(-1), last, 'the assistant message awaiting approval is kept verbatim');
      assert.equal(detectFormat(messages), 'ai-sdk-ui');
      await s.ai.validateUIMessages({ messages });
      const model = await s.ai.convertToModelMessages(messages);
      assert.equal(model[0].role, 'user');
      assert.match(JSON.stringify(model[0].content), /\[Context Compressed\]/);
    });

    test('with keepRecent 0 the pending message stays whole, the archived middle keeps its outputs', async () => {
      const s = await chatSession(v);
      const messages = structuredClone(s.messages);
      const archived = [];
      const report = await new Compactor({ summarize: async () => 'Login page: form fine, stylesheet fixed width.', keepRecent: 0,
        keepTail: { tokens: 0 }, onArchive: (removed) => archived.push(...removed) }).compact(messages, { force: true });
      assert.equal(report.compacted, true);
      assert.deepStrictEqual(archived, s.messages.slice(0, archived.length), 'the archive holds the originals, outputs whole');
      // The kept tail ends with the message awaiting approval: the pending turn, never edited, whatever keepRecent says.
      assert.deepStrictEqual(messages.at(-1), s.messages.at(-1));
      await s.ai.validateUIMessages({ messages });
      await s.ai.convertToModelMessages(messages);
    });

    test('a UIMessage mid-stream (input-available, no output) is never folded', async () => {
      const s = await chatSession(v);
      const waiting = s.snapshots.find((m) => m.parts.some((p) => p.state === 'input-available' && p.type === 'tool-delete_file'));
      const messages = [...structuredClone(s.messages.slice(0, -1)), structuredClone(waiting),
        { id: 'u4', role: 'user', parts: [{ type: 'text', text: 'wait, do not delete anything yet' }] }];
      await new Compactor({ summarize: async () => 'Earlier: login page investigation.', keepTail: { tokens: 0 } }).compact(messages, { force: true });
      assert.deepStrictEqual(messages.slice(-2).map((m) => m.id), ['a3', 'u4']);
    });

    test('every part type: sources, step-start and data parts cost nothing, files are media', async () => {
      const { ai } = await load(v);
      const png = b64(pngBytes(120000));
      const base = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is the weather in 杭州?' }] }];
      const assistant = (parts) => [...base, { id: 'a1', role: 'assistant', metadata: { model: 'claude-sonnet-4-5' }, parts }];
      const silent = [
        { type: 'step-start' },
        { type: 'source-url', sourceId: 's1', url: 'https://weather.example.com/hangzhou', title: 'Hangzhou weather' },
        { type: 'source-document', sourceId: 's2', mediaType: 'application/pdf', title: 'Climate report', filename: 'climate.pdf' },
        { type: 'data-weather', id: 'w1', data: { city: 'Hangzhou', tempC: 31, humidity: 0.78, forecast: Array(40).fill('sunny') } },
      ];
      const empty = estimateTokens(assistant([]));
      assert.equal(estimateTokens(assistant(silent)), empty);
      assert.equal(serialize(assistant(silent)), serialize(assistant([])));
      const image = { type: 'file', mediaType: 'image/png', filename: 'radar.png', url: `data:image/png;base64,${png}` };
      const pdf = { type: 'file', mediaType: 'application/pdf', filename: 'forecast.pdf', url: 'https://weather.example.com/forecast.pdf' };
      assert.equal(estimateTokens(assistant([image])) - empty, 1600);
      assert.equal(estimateTokens(assistant([pdf])) - empty, 3000);
      assert.match(serialize(assistant([image, pdf])), /\[image\]\n\[file: forecast\.pdf\]$/);
      const dynamic = [
        { type: 'dynamic-tool', toolName: 'mcp_weather', toolCallId: 'd1', state: 'output-available', input: { city: 'Hangzhou' }, output: { tempC: 31 } },
        { type: 'dynamic-tool', toolName: 'mcp_weather', toolCallId: 'd2', state: 'output-error', input: { city: '??' },
          errorText: 'MCP error -32602: unknown city "??"; expected one of the 2,856 city names in the GeoNames index (see tools/list for the schema)' },
        { type: 'tool-lookup', toolCallId: 'd3', state: 'output-denied', input: { q: 'x' }, approval: { id: 'ap1', approved: false, reason: 'not needed' } },
        { type: 'tool-lookup', toolCallId: 'd4', state: 'approval-responded', input: { q: 'y' }, approval: { id: 'ap2', approved: true } },
      ];
      const all = assistant([...silent, image, pdf, ...dynamic, { type: 'text', text: '杭州今天 31°C，晴。' }]);
      await ai.validateUIMessages({ messages: all });
      assert.deepStrictEqual(validate(all).problems, []);
      const text = serialize(all);
      assert.match(text, /\[tool_use:mcp_weather\] \{"city": "Hangzhou"\}\n\[tool_result:mcp_weather\] \{"tempC": 31\}/);
      assert.match(text, /\[tool_error:mcp_weather\] MCP error -32602: unknown city/);
      assert.match(text, /\[approval:lookup\] denied: not needed/);
      assert.match(text, /\[approval:lookup\] approved/);
      // The error is cleared into errorText; the denial and the responded approval are untouched.
      // Once the user has answered, the message is no longer the pending turn and can be cleared.
      const copy = structuredClone([...all, { id: 'u2', role: 'user', parts: [{ type: 'text', text: '谢谢' }] }]);
      microCompact(copy, { keepRecent: 0 });
      assert.equal(copy[1].parts[7].state, 'output-error');
      assert.equal(copy[1].parts[7].errorText, `[truncated: mcp_weather result, ${[...all[1].parts[7].errorText].length} chars]`);
      assert.deepStrictEqual(copy[1].parts.slice(8), all[1].parts.slice(8));
      await ai.validateUIMessages({ messages: copy });
      await ai.convertToModelMessages(copy);
    });

    if (v.ai === 'ai-v7') {
      test('ai 7 part types: custom, reasoning-file, steering-message', async () => {
        const { ai } = await load(v);
        const messages = [
          { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Summarise the design doc' }] },
          { id: 'a1', role: 'assistant', parts: [
            { type: 'custom', kind: 'anthropic.container', providerMetadata: { anthropic: { id: 'cont_'.padEnd(400, 'x') } } },
            { type: 'reasoning-file', mediaType: 'image/png', url: `data:image/png;base64,${b64(pngBytes(30000))}` },
            { type: 'steering-message', id: 'st1', parts: [{ type: 'text', text: '重点看安全部分' }] },
            { type: 'text', text: 'The doc proposes token rotation every 24h.' },
          ] },
        ];
        await ai.validateUIMessages({ messages });
        assert.deepStrictEqual(validate(messages).problems, []);
        const text = serialize(messages);
        assert.match(text, /\[assistant\]\n\[image\]\n重点看安全部分\nThe doc proposes/);
        assert.ok(!text.includes('cont_'));
      });
    }

    test('bad UIMessages get problems naming the message and part', async () => {
      const messages = [
        { role: 'user', parts: [{ type: 'text', text: 'hi' }] },
        { id: 'a1', role: 'assistant', parts: [{ type: 'tool-read_file', state: 'finished', input: {} }, { type: 'mystery', x: 1 }] },
        { id: 'u2', role: 'user', parts: 'hello' },
      ];
      const { problems } = validate(messages, { format: 'ai-sdk-ui' });
      const summary = problems.map((p) => [p.code, p.index, p.part ?? null]);
      assert.deepStrictEqual(summary, [
        ['bad-content', 0, null],
        ['missing-id', 1, 0], ['bad-content', 1, 0], ['unknown-block', 1, 1],
        ['bad-content', 2, null],
      ]);
      assert.match(problems[0].message, /id/);
      assert.match(problems[4].message, /parts/);
    });
  });
}
