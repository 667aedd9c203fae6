// Provider-level prompts (LanguageModelV3 in ai 6, V4 in ai 7): what a wrapLanguageModel
// middleware's transformParams receives as params.prompt. Every user and assistant
// message there has array content, so the summary and acknowledgement midfold inserts
// must be arrays of text parts too — a string there makes @ai-sdk/anthropic send
// {"role":"user","content":[]} and @ai-sdk/openai throw. Proven on the wire: the real
// providers (@ai-sdk/anthropic and @ai-sdk/openai 3.x for ai 6, 4.x for ai 7) send the
// compacted prompt to a mock HTTP server on 127.0.0.1, and the assertions read the exact
// HTTP body.
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { init, Compactor, detectFormat, validate } from '../../js/hosts/node.js';
import { VERSIONS, codingSession, skipReason, load } from '../helpers/ai-sdk-flows.mjs';
import { startMockLLM } from '../helpers/mock-llm.mjs';

await init();

const SUMMARY = '修复登录页：已读取 src/login.tsx，截图显示表单溢出；用户批准删除旧样式表。';
const PROVIDERS = {
  'ai 6': { anthropic: '@ai-sdk/anthropic', openai: '@ai-sdk/openai', spec: 'v3' },
  'ai 7': { anthropic: '@ai-sdk/anthropic-v4', openai: '@ai-sdk/openai-v4', spec: 'v4' },
};

let llm;
before(async () => { llm = await startMockLLM(); });
after(async () => { await llm.close(); });

/** A model of `which` provider talking to the mock server, wrapped so each call's prompt is compacted. */
async function wrapped(v, which, seen) {
  const { ai } = await load(v);
  const names = PROVIDERS[v.name];
  const provider = await import(names[which]);
  const base = which === 'anthropic'
    ? provider.createAnthropic({ apiKey: 'test-key', baseURL: `${llm.url}/v1` })('claude-sonnet-4-5')
    : provider.createOpenAI({ apiKey: 'test-key', baseURL: `${llm.url}/v1` }).chat('gpt-4.1');
  const middleware = {
    specificationVersion: names.spec,
    transformParams: async ({ params }) => {
      const prompt = [...params.prompt];
      seen.before = structuredClone(prompt);
      seen.format = detectFormat(prompt);
      // A small tail: the delete_file exchange and the new question stay, the file read and the screenshot fold.
      await new Compactor({ summarize: async () => SUMMARY, keepTail: { tokens: 400 } }).compact(prompt, { force: true });
      seen.after = prompt;
      return { ...params, prompt };
    },
  };
  return { ai, model: ai.wrapLanguageModel({ model: base, middleware }) };
}

const tail = (list, n) => list.slice(list.length - n);

for (const v of VERSIONS) {
  for (const which of ['anthropic', 'openai']) {
    describe(`${v.name}, ${PROVIDERS[v.name][which]}: a compacted provider prompt on the wire`, { skip: skipReason(v) || false }, () => {
      test('the summary is text, every tool call keeps its result, the tail is verbatim', async () => {
        const s = await codingSession(v, { screenshotBytes: 20000 });
        const messages = [...s.done, { role: 'user', content: '顺便检查一下 README 里的启动命令' }];
        const system = 'You are a careful front-end engineer.';
        const seen = {};
        const { ai, model } = await wrapped(v, which, seen);
        llm.respondWith({ text: 'README says npm run dev.' });
        const from = llm.requests.length;
        // ai 6 takes the system prompt as `system`, ai 7 as `instructions`.
        const result = await ai.generateText({ model, messages, ...(v.ai === 'ai' ? { system } : { instructions: system }) });
        assert.equal(result.text, 'README says npm run dev.');

        // What the middleware got and gave back.
        assert.equal(seen.format, 'ai-sdk');
        assert.ok(seen.before.every((m) => m.role === 'system' ? typeof m.content === 'string' : Array.isArray(m.content)));
        assert.ok(seen.after.every((m) => m.role === 'system' ? typeof m.content === 'string' : Array.isArray(m.content)),
          'the inserted messages are in the prompt\'s style');
        assert.deepStrictEqual(seen.after[1], { role: 'user', content: [{ type: 'text', text: `[Context Compressed]\n${SUMMARY}` }] });
        assert.deepStrictEqual(validate(seen.after).problems, []);
        // The tail starts with the assistant message that calls delete_file: no acknowledgement.
        const kept = seen.after.length - 2; // system, summary
        assert.equal(seen.after[2].role, 'assistant');
        assert.ok(seen.after[2].content.some((p) => p.type === 'tool-call' && p.toolName === 'delete_file'));
        assert.deepStrictEqual(tail(seen.after, kept), tail(seen.before, kept));
        assert.ok(kept < seen.before.length - 1, 'something was folded');

        // What went over HTTP.
        const sent = llm.requests.slice(from);
        assert.equal(sent.length, 1);
        const body = sent[0].body;
        if (which === 'anthropic') {
          assert.equal(sent[0].path, '/v1/messages');
          assert.deepStrictEqual(body.system, [{ type: 'text', text: 'You are a careful front-end engineer.' }]);
          assert.deepStrictEqual(body.messages[0], { role: 'user', content: [{ type: 'text', text: `[Context Compressed]\n${SUMMARY}` }] });
          assert.equal(body.messages[1].role, 'assistant');
          assert.ok(body.messages[1].content.some((c) => c.type === 'tool_use' && c.name === 'delete_file'));
          // Every tool_use is answered in the next message.
          body.messages.forEach((m, i) => {
            for (const c of m.content) {
              if (c.type !== 'tool_use') continue;
              assert.ok(body.messages[i + 1].content.some((r) => r.type === 'tool_result' && r.tool_use_id === c.id), c.id);
            }
          });
          assert.deepStrictEqual(body.messages.at(-1).content.at(-1), { type: 'text', text: '顺便检查一下 README 里的启动命令' });
          assert.ok(body.messages.every((m) => m.content.length > 0), 'no empty message');
        } else {
          assert.equal(sent[0].path, '/v1/chat/completions');
          assert.deepStrictEqual(body.messages[0], { role: 'system', content: 'You are a careful front-end engineer.' });
          assert.equal(body.messages[1].role, 'user');
          assert.match(JSON.stringify(body.messages[1].content), /\[Context Compressed\]\\n修复登录页/);
          assert.equal(body.messages[2].role, 'assistant');
          assert.equal(body.messages[2].tool_calls[0].function.name, 'delete_file');
          const calls = body.messages.flatMap((m) => m.tool_calls || []).map((c) => c.id);
          const results = body.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
          assert.ok(calls.length > 0);
          assert.deepStrictEqual([...results].sort(), [...calls].sort());
          assert.match(JSON.stringify(body.messages.at(-1)), /顺便检查一下 README 里的启动命令/);
        }
        // The folded part is gone from the wire: the first file read is only in the summary.
        assert.ok(!sent[0].rawBody.includes("import { useState } from 'react'"));
      });
    });
  }
}
