// Seeded agent loops through the compacting proxy (web-demo/edge/worker.js in real workerd, with its
// Durable Object state) from the real `openai` client, against an upstream that rejects what the providers
// document they reject: DeepSeek V4 in thinking mode (reasoning_content required back on tool-calling turns,
// tests/helpers/deepseek-rules.mjs), Claude behind OpenRouter (signed reasoning_details bound to the
// conversation before them, tests/helpers/openrouter-claude.mjs), and a plain OpenAI model (pairs intact).
// The client re-sends its whole history every turn, as Chat Completions clients do; it streams some answers
// and assembles them from the deltas; it keeps two conversations going, which may open with the same words
// (then they share the proxy's state key), and sometimes sends a request of each at once (each names its
// conversation in prompt_cache_key, which is how the mock tells them apart); and, as a chat UI's "edit and
// resend" does, it sometimes takes its last request back and asks another.
//
// What holds on every request of every loop:
// - the upstream accepts what the proxy forwards (the client gets a 200);
// - the forwarded conversation ends with the client's last message, as the client sent it, and validate()
//   finds no error in it;
// - a summary is written only for a compaction, and a compaction ends under the threshold;
// - a forwarded request is over the threshold only while signed thinking is in flight ('deferred-thinking');
// - once a conversation's history was edited, every later request continues the remembered form: what the
//   proxy plans on is that form plus what the client added, not the whole history again (no summary
//   rewritten every turn), until the client takes a request back or sends two at once.
// Seeds, ids and the mock's answers are fixed, so every run sends the same requests.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { init, estimateTokens, validate } from '../../js/hosts/node.js';
import { startMockLLM } from '../helpers/mock-llm.mjs';
import { ROOT, startWorkerd, workerConfig } from '../helpers/workerd.mjs';
import { deepseekRejection } from '../helpers/deepseek-rules.mjs';
import { signedDetails, signedReasoningRejection, providerError } from '../helpers/openrouter-claude.mjs';
import { chatCompletionSSE } from '../helpers/chat-sse.mjs';
import { prng } from '../helpers/prng.mjs';
import { MODULES, toolOutput, modelSummary, userRequest } from '../helpers/agent-loop.mjs';

const WORKER = path.join(ROOT, 'web-demo/edge/worker.js');
const SYSTEM = 'You are a coding agent in the sales-report repository.';
const TOOL_NAMES = ['read_file', 'bash', 'grep'];
const TOOLS = TOOL_NAMES.map((name) => ({ type: 'function', function: { name, description: `The ${name} tool.`,
  parameters: { type: 'object', properties: { arg: { type: 'string' } } } } }));
// One proxy per threshold (THRESHOLD is the worker's setting); a seed draws one.
const THRESHOLDS = [8000, 12000, 16000];
const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9];
const TOKENS = SEEDS.map((seed) => `tok-loop-${seed}`); // state is scoped per client token: one per seed
const STEPS = 90;

let llm;
let wd;
let tmp;
before(async () => {
  await init();
  llm = await startMockLLM();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'midfold-edge-loop-'));
  const services = THRESHOLDS.map((t) => `proxy${t}`);
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    ${services.map((s) => `(name = "${s}", worker = .${s})`).join(',\n    ')},
    (name = "loopback", network = (allow = ["127.0.0.1/32"])),
  ],
  sockets = [
    ${services.map((s) => `(name = "${s}", address = "127.0.0.1:0", http = (), service = "${s}")`).join(',\n    ')},
  ],
);

${THRESHOLDS.map((t) => workerConfig(`proxy${t}`, WORKER, tmp, [['UPSTREAM_URL', `${llm.url}/v1`], ['UPSTREAM_KEY', 'sk-upstream-3c9d'],
    ['CLIENT_TOKEN', TOKENS.join(',')], ['THRESHOLD', String(t)]], [], { sessions: true })).join('\n')}
`;
  await writeFile(path.join(tmp, 'config.capnp'), config);
  wd = await startWorkerd({ config: path.join(tmp, 'config.capnp') });
});
after(async () => {
  if (wd) await wd.stop();
  if (llm) await llm.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

// ---- The upstreams: what each model answers, and what its provider refuses -------------------------------

const UPSTREAMS = {
  deepseek: {
    model: 'deepseek-v4-flash',
    reject: (body) => deepseekRejection(body),
    error: (message) => ({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' } }),
    /** The assistant message answering `body` (its reasoning as DeepSeek returns it). */
    message: (body, { calls, module, toolCalls }) => ({ role: 'assistant', content: calls ? '' : `已修复 ${module}：改用整数分计算，测试全部通过。`,
      reasoning_content: calls ? `先看 ${module} 的实现和测试，再决定怎么改。` : '改动已经验证过了。', ...(calls ? { tool_calls: toolCalls } : {}) }),
  },
  'openrouter-claude': {
    model: 'anthropic/claude-sonnet-4.5',
    reject: (body) => deepseekRejection(body) || signedReasoningRejection(body.messages),
    error: providerError,
    message: (body, { calls, module, toolCalls }) => {
      const thinking = calls ? `Look at ${module} before changing it.` : 'The change is verified.';
      return { role: 'assistant', content: calls ? '' : `Fixed ${module}: integer cents.`, ...(calls ? { tool_calls: toolCalls } : {}),
        reasoning: thinking, reasoning_details: signedDetails(body.messages, thinking) };
    },
  },
  openai: {
    model: 'gpt-5.4-mini',
    reject: (body) => deepseekRejection(body),
    error: (message) => ({ error: { message, type: 'invalid_request_error', param: 'messages', code: null } }),
    message: (body, { calls, module, toolCalls }) => ({ role: 'assistant', content: calls ? null : `Fixed ${module}; the tests pass.`,
      ...(calls ? { tool_calls: toolCalls } : {}), refusal: null }),
  },
};

/** The assistant message a client assembles from the chunks of a stream (as DeepSeek's and OpenRouter's guides do). */
async function assemble(stream) {
  const message = { role: 'assistant', content: '' };
  const calls = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0] && chunk.choices[0].delta;
    if (!delta) continue;
    if (delta.content) message.content += delta.content;
    if (delta.reasoning_content) message.reasoning_content = (message.reasoning_content ?? '') + delta.reasoning_content;
    if (delta.reasoning) message.reasoning = (message.reasoning ?? '') + delta.reasoning;
    if (delta.reasoning_details) message.reasoning_details = [...(message.reasoning_details ?? []), ...delta.reasoning_details];
    for (const d of delta.tool_calls || []) {
      const call = (calls[d.index] ??= { id: d.id, type: 'function', function: { name: '', arguments: '' } });
      if (d.function && d.function.name) call.function.name += d.function.name;
      if (d.function && d.function.arguments) call.function.arguments += d.function.arguments;
    }
  }
  if (calls.length) message.tool_calls = calls;
  return message;
}

// ---- The client ------------------------------------------------------------------------------------------

const answered = (m) => m.role === 'assistant' && !(m.tool_calls && m.tool_calls.length);

/**
 * True when all that follows the system message and a summary is the step in flight (the last assistant
 * message and its tools' outputs): a step whose outputs alone pass the threshold, which nothing may shorten.
 */
function liveStepAlone(messages) {
  const summary = messages.findIndex((m) => m.role === 'user' && typeof m.content === 'string' && m.content.startsWith('[Context Compressed]'));
  const step = messages.slice(summary + 1);
  return summary >= 0 && step.length > 1 && step[0].role === 'assistant' && step[0].tool_calls && step.slice(1).every((m) => m.role === 'tool');
}

/** The figures the proxy adds to an answer. */
function figuresOf(headers) {
  return { before: Number(headers.get('x-midfold-tokens-before')), after: Number(headers.get('x-midfold-tokens-after')),
    compacted: headers.get('x-midfold-compacted') === 'true', reason: headers.get('x-midfold-reason'),
    state: headers.get('x-midfold-state'), reused: Number(headers.get('x-midfold-reused-messages')) };
}

async function runLoop(seed) {
  const r = prng(seed);
  const upstream = UPSTREAMS[Object.keys(UPSTREAMS)[Math.floor(r() * 3)]];
  const threshold = THRESHOLDS[Math.floor(r() * THRESHOLDS.length)];
  const client = new OpenAI({ apiKey: TOKENS[SEEDS.indexOf(seed)], baseURL: `${wd.url(`proxy${threshold}`)}/v1`, maxRetries: 0 });
  const sameOpening = r() < 0.5;
  const settings = { upstream: upstream.model, threshold, sameOpening };
  const firstRequest = userRequest(r, MODULES[0]);
  // Two conversations from the same client; with the same opening they share the proxy's state key.
  const conversations = [0, 1].map((k) => ({ key: `conversation-${k}`, loopSteps: 0, edited: false, previous: null,
    messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: sameOpening || k === 0 ? firstRequest : userRequest(r, MODULES[1]) }] }));
  let ids = 0;
  const uid = () => ++ids;
  const stats = { requests: 0, streamed: 0, concurrent: 0, summaries: 0, compactions: 0, continued: 0, takenBack: 0, deferred: 0, stepOver: 0, peak: 0 };

  /** The client's next request in `c` and the answer the model will give it (drawn in this order from the seed). */
  function plan(c) {
    const module = MODULES[Math.floor(r() * MODULES.length)];
    let takenBack = false;
    if (answered(c.messages.at(-1))) {
      const lastUser = c.messages.findLastIndex((m) => m.role === 'user' && typeof m.content === 'string');
      if (lastUser > 1 && r() < 0.08) { c.messages.length = lastUser; takenBack = true; stats.takenBack++; } // edit and resend
      c.messages.push({ role: 'user', content: userRequest(r, module) });
      c.loopSteps = 0;
    }
    const calls = c.loopSteps++ < 3 && r() < 0.75 ? 1 + Math.floor(r() * 3) : 0;
    const toolCalls = Array.from({ length: calls }, () => ({ id: `call_${uid()}`, type: 'function',
      function: { name: TOOL_NAMES[Math.floor(r() * TOOL_NAMES.length)], arguments: JSON.stringify({ arg: `src/${module}.js` }) } }));
    return { c, module, takenBack, calls, toolCalls, stream: r() < 0.3, id: `chatcmpl-${uid()}`, sent: structuredClone(c.messages) };
  }

  /** The model's answer to a forwarded request: its plan is found by the request's prompt_cache_key. */
  const answer = (plans) => async ({ body }) => {
    if (!body.tools) return { text: await modelSummary({ prompt: body.messages.map((m) => m.content).join('\n') }) }; // the proxy's summary request
    const problem = upstream.reject(body);
    if (problem) return { status: 400, json: upstream.error(problem) };
    const p = plans.find((q) => q.c.key === body.prompt_cache_key);
    const message = upstream.message(body, p);
    const finish = p.calls ? 'tool_calls' : 'stop';
    if (body.stream) return { raw: chatCompletionSSE(p.id, body.model, message, finish), contentType: 'text/event-stream' };
    return { json: { id: p.id, object: 'chat.completion', created: 1764547200, model: body.model, choices: [{ index: 0, message, finish_reason: finish }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } } };
  };

  async function send(p, where) {
    try {
      const { data, response } = await client.chat.completions.create({ model: upstream.model, messages: p.c.messages, tools: TOOLS,
        stream: p.stream, prompt_cache_key: p.c.key }).withResponse();
      return { figures: figuresOf(response.headers), reply: p.stream ? await assemble(data) : data.choices[0].message };
    } catch (error) {
      assert.fail(`${where}: the request failed: ${error.message}`);
    }
  }

  for (let i = 0; i < STEPS;) {
    // Most steps are one request; some send a request of each conversation at once (two tabs, two agents).
    const concurrent = r() < 0.2;
    const plans = (concurrent ? conversations : [conversations[r() < 0.7 ? 0 : 1]]).map(plan);
    const where = (p) => `seed ${seed} (${JSON.stringify(settings)}), request ${i} (${p.c.key}${concurrent ? ', concurrent' : ''})`;
    llm.respondWith(answer(plans));
    const seen = llm.requests.length;
    const results = await Promise.all(plans.map((p) => send(p, where(p))));
    i += plans.length;
    stats.requests += plans.length;
    if (concurrent) stats.concurrent++;
    stats.streamed += plans.filter((p) => p.stream).length;
    const fresh = llm.requests.slice(seen);
    const summaries = fresh.filter((q) => !q.body.tools).length;
    stats.summaries += summaries;
    const compacted = results.filter((x) => x.figures.compacted).length;
    // Summaries only for a compaction.
    if (compacted) assert.ok(summaries >= compacted, `${where(plans[0])}: ${compacted} compactions, ${summaries} summaries`);
    else assert.equal(summaries, 0, `${where(plans[0])}: a summary without a compaction (${results.map((x) => x.figures.reason)})`);

    plans.forEach((p, k) => {
      const { figures, reply } = results[k];
      const { c, sent, stream } = p;
      const forwarded = fresh.filter((q) => q.body.tools && q.body.prompt_cache_key === c.key);
      assert.equal(forwarded.length, 1, `${where(p)}: one request forwarded`);
      const messages = forwarded[0].body.messages;

      // The live tail as the client sent it; the rest a conversation the provider reads.
      assert.deepStrictEqual(messages.at(-1), JSON.parse(JSON.stringify(sent.at(-1))), `${where(p)}: the last message changed`);
      assert.equal(forwarded[0].body.stream ?? false, stream);
      assert.deepEqual(validate(messages).problems.filter((q) => q.severity === 'error'), [], `${where(p)}: validate (${figures.reason})`);

      // A compaction ends under the threshold, unless what is left is the step in flight alone.
      if (figures.compacted) {
        stats.compactions++;
        assert.ok(figures.after < figures.before, `${where(p)}: ${JSON.stringify(figures)}`);
        assert.ok(figures.after < threshold || liveStepAlone(messages), `${where(p)}: ${figures.after} tokens after a compaction, threshold ${threshold}`);
      }
      const size = estimateTokens(messages, { profile: 'safe' });
      stats.peak = Math.max(stats.peak, size);
      if (figures.reason === 'deferred-thinking') stats.deferred++;
      if (size > threshold && liveStepAlone(messages)) stats.stepOver++;
      else if (size > threshold) assert.equal(figures.reason, 'deferred-thinking', `${where(p)}: ${size} tokens forwarded, threshold ${threshold}`);

      // Once edited, the conversation continues from what the proxy remembers: it plans on its remembered form
      // plus what the client added since, which a summary made smaller than the whole history. Not claimed
      // across a taken-back request, nor right after two requests at once: the moment between a save's read
      // and its write can still lose the other's snapshot (a fresh plan, never a wrong prefix).
      if (p.takenBack) c.edited = false;
      if (c.edited) {
        assert.equal(figures.state, 'continued', `${where(p)}: the remembered form is reused`);
        stats.continued++;
        const growth = estimateTokens(sent.slice(c.previous.length), { profile: 'safe' });
        assert.ok(figures.before <= c.previous.after + growth + 16, `${where(p)}: planned on ${figures.before} tokens, ${c.previous.after} remembered + ${growth} added`);
      }
      c.edited = !concurrent && (figures.state === 'continued' || JSON.stringify(messages) !== JSON.stringify(sent));
      c.previous = { length: sent.length, after: figures.after };

      // What the client keeps: its own history, plus the answer and the tools' outputs.
      const keep = { role: 'assistant', content: reply.content ?? '' };
      for (const key of ['reasoning_content', 'reasoning', 'reasoning_details', 'tool_calls']) if (reply[key] !== undefined) keep[key] = reply[key];
      c.messages.push(keep);
      for (const call of reply.tool_calls || []) c.messages.push({ role: 'tool', tool_call_id: call.id, content: toolOutput(r, call.function.name, p.module) });
    });
  }
  return { settings, stats };
}

test('the compacting proxy in workerd: seeded two-conversation loops from the openai client, every request accepted by DeepSeek, OpenRouter-Claude or OpenAI rules', async (t) => {
  const totals = { compactions: 0, continued: 0, takenBack: 0, streamed: 0, concurrent: 0 };
  const upstreams = new Set();
  for (const seed of SEEDS) {
    const { settings, stats } = await runLoop(seed);
    t.diagnostic(`seed ${seed}: ${JSON.stringify(settings)} -> ${JSON.stringify(stats)}`);
    for (const k of Object.keys(totals)) totals[k] += stats[k];
    upstreams.add(settings.upstream);
    // Every loop reaches its threshold: a loop that never folds tests nothing here.
    assert.ok(stats.compactions >= 1, `seed ${seed}: ${stats.compactions} compactions`);
    if (settings.upstream !== 'anthropic/claude-sonnet-4.5') {
      // (so a request over the threshold is one whose step in flight passes it alone: checked on each request)
      assert.equal(stats.deferred, 0, `seed ${seed}: unsigned reasoning binds nothing, so nothing waits`);
    }
  }
  // The loops exercised what they are for.
  assert.ok(Object.values(totals).every((n) => n > 0), JSON.stringify(totals));
  assert.equal(upstreams.size, Object.keys(UPSTREAMS).length, [...upstreams].join(', '));
});
