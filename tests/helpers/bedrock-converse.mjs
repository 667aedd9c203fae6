// A mock of Amazon Bedrock's Converse API (POST /model/{modelId}/converse, and /converse-stream answering in
// AWS's event-stream framing) serving Claude with extended thinking: a real HTTP server on 127.0.0.1 (ephemeral port) that answers what the test scripts and refuses
// what Bedrock refuses, with Bedrock's error shape (a 4xx, `x-amzn-ErrorType`, `{message}`). Requests reach it
// through the AI SDK's Bedrock provider (@ai-sdk/amazon-bedrock) with its `baseURL` pointed here.
//
// The rules (docs/provider-rules.md, "Amazon Bedrock"):
// - a request is SigV4-signed (an `authorization: AWS4-HMAC-SHA256 …` header), or it is a 403;
// - roles alternate user / assistant, starting with a user message;
// - every toolUse of an assistant message is answered by a toolResult in the next message, and every
//   toolResult answers a toolUse of the message before;
// - a reasoningText's `signature` is "a hash of all the messages in the conversation": the reasoning must come
//   back unmodified, and a request whose messages before it changed is refused (ReasoningTextBlock, Bedrock API
//   reference). Here the signature is an HMAC over the text and a hash of the messages before it;
// - with thinking on (additionalModelRequestFields.thinking), an assistant message whose tool loop is in flight
//   (the request ends with its results) starts with its reasoning, as Anthropic requires of Claude;
// - "Compaction is currently not supported by the Converse API, however it is supported with InvokeModel"
//   (Bedrock's compaction page): a compact_20260112 edit or the compact-2026-01-12 beta in
//   additionalModelRequestFields is refused. (Nothing documents tool clearing through Converse either: midfold
//   sends it none, and this mock applies none.)
//
//   const b = await startBedrockConverse();
//   b.reply = (body) => [{ reasoningContent: … }, { toolUse: … }]   // the assistant content to answer
//   b.requests   // [{ modelId, headers, body, status, error? }] (a stream's too)
//   await b.close();

import http from 'node:http';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

const secret = randomBytes(16);

/** The hash a signature binds: every message before the one at `end`, reasoning blocks left out. */
function prefixHash(messages, end) {
  const seen = messages.slice(0, end).map((m) => ({ role: m.role, content: (m.content || []).filter((b) => !b.reasoningContent) }));
  return createHash('sha256').update(JSON.stringify(seen)).digest('base64url');
}
const mac = (text, prefix) => createHmac('sha256', secret).update(`${prefix}\u0000${text}`).digest('base64url');

/** A signed reasoning block for an answer to `messages`. */
export function signedReasoning(messages, text) {
  const prefix = prefixHash(messages, messages.length);
  return { reasoningContent: { reasoningText: { text, signature: `${prefix}.${mac(text, prefix)}` } } };
}

/** What Bedrock refuses in a Converse request body, as {status, type, message}; or null. */
export function converseRejection(body, headers) {
  if (!/^AWS4-HMAC-SHA256 Credential=/.test(headers.authorization || ''))
    return { status: 403, type: 'MissingAuthenticationTokenException', message: 'Missing Authentication Token' };
  const messages = body && Array.isArray(body.messages) ? body.messages : null;
  if (!messages || !messages.length) return validation('The messages field is required and must not be empty.');
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    const expected = i % 2 === 0 ? 'user' : 'assistant';
    if (!m || m.role !== expected) return validation(`A conversation must alternate between user and assistant roles. messages.${i} should be ${expected}.`);
    if (!Array.isArray(m.content) || !m.content.length) return validation(`messages.${i}.content must not be empty.`);
  }
  for (let i = 0; i < messages.length; i++) {
    const uses = messages[i].content.filter((b) => b.toolUse).map((b) => b.toolUse.toolUseId);
    const results = messages[i].content.filter((b) => b.toolResult).map((b) => b.toolResult.toolUseId);
    const before = i > 0 ? messages[i - 1].content.filter((b) => b.toolUse).map((b) => b.toolUse.toolUseId) : [];
    for (const id of results) {
      if (!before.includes(id)) return validation(`messages.${i}.content: toolResult ${id} does not answer a toolUse of the previous turn.`);
    }
    if (uses.length && i + 1 < messages.length) {
      const answered = messages[i + 1].content.filter((b) => b.toolResult).map((b) => b.toolResult.toolUseId);
      const missing = uses.filter((id) => !answered.includes(id));
      if (missing.length) return validation(`Expected toolResult blocks at messages.${i + 1}.content for the following Ids: ${missing.join(', ')}`);
    }
  }
  for (let i = 0; i < messages.length; i++) {
    for (let k = 0; k < messages[i].content.length; k++) {
      const r = messages[i].content[k].reasoningContent;
      const text = r && r.reasoningText;
      if (!text || !text.signature) continue;
      const [prefix, tag] = String(text.signature).split('.');
      if (tag !== mac(text.text ?? '', prefix)) return validation(`messages.${i}.content.${k}: the reasoning block was modified; it must be passed back as the model returned it.`);
      if (prefix !== prefixHash(messages, i)) return validation(`messages.${i}.content.${k}: the messages before this reasoning block were tampered with; its signature no longer matches the conversation.`);
    }
  }
  const extra = body.additionalModelRequestFields || {};
  const edits = extra.context_management && Array.isArray(extra.context_management.edits) ? extra.context_management.edits : [];
  if ((Array.isArray(extra.anthropic_beta) && extra.anthropic_beta.includes('compact-2026-01-12')) || edits.some((e) => e && e.type === 'compact_20260112'))
    return validation('Compaction is not supported by the Converse API; use InvokeModel.');
  const thinking = body.additionalModelRequestFields && body.additionalModelRequestFields.thinking;
  const last = messages[messages.length - 1];
  const loop = messages.length >= 2 && last.content.some((b) => b.toolResult) ? messages[messages.length - 2] : null;
  if (thinking && loop && !loop.content[0].reasoningContent)
    return validation(`messages.${messages.length - 2}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${Object.keys(loop.content[0])[0]}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block.`);
  return null;
}
const validation = (message) => ({ status: 400, type: 'ValidationException', message });

/**
 * One event-stream message (application/vnd.amazon.eventstream): the total and header lengths and their
 * CRC32, string headers (type 7), the payload, the CRC32 of all before it; big-endian throughout.
 */
function eventMessage(eventType, payload) {
  const headers = Buffer.concat(Object.entries({ ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' })
    .map(([name, value]) => {
      const n = Buffer.from(name), v = Buffer.from(value);
      const head = Buffer.alloc(1 + n.length + 3);
      head.writeUInt8(n.length, 0);
      n.copy(head, 1);
      head.writeUInt8(7, 1 + n.length);
      head.writeUInt16BE(v.length, 2 + n.length);
      return Buffer.concat([head, v]);
    }));
  const body = Buffer.from(JSON.stringify(payload));
  const total = 12 + headers.length + body.length + 4;
  const prelude = Buffer.alloc(12);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headers.length, 4);
  prelude.writeUInt32BE(crc32(prelude.subarray(0, 8)), 8);
  const message = Buffer.concat([prelude, headers, body]);
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(message), 0);
  return Buffer.concat([message, tail]);
}

/** Converse content as ConverseStream events: each block's start, deltas and stop, then the stop and the usage. */
function streamOf(content, stopReason, usage) {
  const events = [eventMessage('messageStart', { role: 'assistant' })];
  content.forEach((block, contentBlockIndex) => {
    const delta = (d) => events.push(eventMessage('contentBlockDelta', { contentBlockIndex, delta: d }));
    if (block.toolUse) {
      events.push(eventMessage('contentBlockStart', { contentBlockIndex, start: { toolUse: { toolUseId: block.toolUse.toolUseId, name: block.toolUse.name } } }));
      delta({ toolUse: { input: JSON.stringify(block.toolUse.input) } });
    } else if (block.reasoningContent) {
      delta({ reasoningContent: { text: block.reasoningContent.reasoningText.text } });
      delta({ reasoningContent: { signature: block.reasoningContent.reasoningText.signature } });
    } else delta({ text: block.text });
    events.push(eventMessage('contentBlockStop', { contentBlockIndex }));
  });
  events.push(eventMessage('messageStop', { stopReason }), eventMessage('metadata', { usage, metrics: { latencyMs: 1 } }));
  return Buffer.concat(events);
}

/** Starts the server. `reply(body)` gives the assistant content of each answer (Converse content blocks). */
export async function startBedrockConverse() {
  const requests = [];
  const self = { url: '', requests, reply: () => [{ text: 'ok' }] };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => { raw += c; });
    req.on('end', () => {
      const match = /^\/model\/([^/]+)\/converse(-stream)?$/.exec(req.url);
      let body = null;
      try { body = JSON.parse(raw); } catch { /* refused below */ }
      const record = { modelId: match ? decodeURIComponent(match[1]) : null, headers: req.headers, body, status: 200 };
      requests.push(record);
      const send = (status, payload, headers = {}) => {
        const text = JSON.stringify(payload);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
        res.end(text);
      };
      const problem = !match ? { status: 404, type: 'UnknownOperationException', message: `no operation at ${req.url}` }
        : body === null ? validation('The request body is not valid JSON.') : converseRejection(body, req.headers);
      if (problem) {
        record.status = problem.status;
        record.error = problem.message;
        return send(problem.status, { message: problem.message }, { 'x-amzn-errortype': `${problem.type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
      }
      const content = self.reply(body);
      const inputTokens = Math.ceil(JSON.stringify(body.messages).length / 4);
      const stopReason = content.some((b) => b.toolUse) ? 'tool_use' : 'end_turn';
      const usage = { inputTokens, outputTokens: 20, totalTokens: inputTokens + 20 };
      if (match[2]) {
        const events = streamOf(content, stopReason, usage);
        res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'content-length': events.length });
        return res.end(events);
      }
      send(200, { output: { message: { role: 'assistant', content } }, stopReason, usage, metrics: { latencyMs: 1 } });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${server.address().port}`;
  self.close = () => new Promise((resolve) => server.close(resolve));
  return self;
}
