// A scriptable mock LLM server for tests: a real HTTP server on 127.0.0.1 (ephemeral port) that speaks both
// the OpenAI Chat Completions API (POST /v1/chat/completions or /chat/completions) and the Anthropic Messages
// API (POST /v1/messages). It records every request and answers as the test scripts it.
//
//   const llm = await startMockLLM();
//   llm.respondWith({ text: 'a summary' });          // every later request, until changed
//   llm.enqueue({ status: 429 }, { text: 'ok' });    // one-shot responses, used first, in order
//   const s = openAISummarizer({ baseURL: llm.url + '/v1', model: 'm' });
//   ...
//   llm.requests[0].body.model
//   await llm.close();
//
// A response is decided by a *spec* (or a function of the recorded request returning a spec, or a promise of
// one). Spec fields, all optional:
//   text: string          200 with this text in the API's shape (choices[0].message.content / content[0].text)
//   status: number        the HTTP status (default 200; for >= 400 without json/raw, an API-shaped error body)
//   error: string         the message of that error body
//   json: any             send this value as the JSON body, as is
//   raw: string           send this string as the body, as is (content-type: contentType or text/plain)
//   malformed: true       200 with a body that is not valid JSON
//   empty: true           200 with an API-shaped response holding no text
//   delay: ms             wait this long before sending the status line (cancelled if the client disconnects)
//   bodyDelay: ms         send the headers at once, the body after this long (also cancelled on disconnect)
//   hang: true            never answer; the request stays open until the client disconnects or close()
//   destroy: true         drop the connection without any response (a network error for the client)
//   headers: object       extra response headers
// With `startMockLLM({ strictChat: true })` a Chat Completions request is first checked by the rules the API
// enforces on a tool history (chatProblem below; docs/provider-rules.md) and refused with 400 in its wording.
// Without any spec the server answers 200 with a deterministic digest-like summary of the prompt (see
// defaultSummary()).

import http from 'node:http';

/**
 * The deterministic default answer: a short digest of what the summarizer was asked.
 * @param {{ prompt: string, system: string }} req
 */
export function defaultSummary({ prompt, system }) {
  const lines = String(prompt).split('\n').filter((l) => l.trim() !== '');
  return `[mock summary ${fnv1a(String(system) + '\u0000' + String(prompt))}] ` +
    `${[...String(prompt)].length} chars, ${lines.length} lines; starts: ${JSON.stringify(lines[0] ? lines[0].slice(0, 60) : '')}`;
}

function fnv1a(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

function apiOf(path) {
  if (path === '/v1/chat/completions' || path === '/chat/completions') return 'openai';
  if (path === '/v1/messages') return 'anthropic';
  return null;
}

function promptOf(api, body) {
  if (!body || typeof body !== 'object' || !Array.isArray(body.messages)) return { system: '', prompt: '' };
  const text = (c) => typeof c === 'string' ? c
    : Array.isArray(c) ? c.map((p) => (p && typeof p.text === 'string' ? p.text : '')).join('') : '';
  let system = api === 'anthropic' ? text(body.system) : '';
  let prompt = '';
  for (const m of body.messages) {
    if (!m || typeof m !== 'object') continue;
    if (m.role === 'system' || m.role === 'developer') system += text(m.content);
    else if (m.role === 'user') prompt += text(m.content);
  }
  return { system, prompt };
}

function successBody(api, text, body, n) {
  const model = body && typeof body.model === 'string' ? body.model : 'mock-model';
  if (api === 'anthropic') {
    return {
      id: `msg_mock_${n}`, type: 'message', role: 'assistant', model,
      content: text === null ? [] : [{ type: 'text', text }],
      stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: text ? text.length : 0 },
    };
  }
  return {
    id: `chatcmpl-mock-${n}`, object: 'chat.completion', created: 1700000000, model,
    choices: [{ index: 0, message: { role: 'assistant', content: text === null ? '' : text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: text ? text.length : 0, total_tokens: 1 },
  };
}

function errorBody(api, status, message) {
  const type = status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error'
    : status === 529 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  const msg = message ?? (status === 429 ? 'Rate limit reached, please retry later'
    : status >= 500 ? 'The server had an error while processing your request' : `Request failed with status ${status}`);
  if (api === 'anthropic') return { type: 'error', error: { type, message: msg } };
  return { error: { message: msg, type, param: null, code: status === 429 ? 'rate_limit_exceeded' : null } };
}

/**
 * Starts the server.
 * @param {{ respond?: object|Function, queue?: Array<object|Function> }} [options]
 *   `respond`: the standing responder (a spec or a function of the request); `queue`: initial one-shot specs.
 * @returns {Promise<{ url: string, port: number, requests: object[], respondWith(fnOrSpec: object|Function|null): void,
 *   enqueue(...specs: Array<object|Function>): void, reset(): void, openSockets(): number, close(): Promise<void> }>}
 *   `url` is `http://127.0.0.1:PORT` with no trailing slash. Each entry of `requests` is
 *   `{ method, path, headers (lower-case names), body (parsed JSON or null), rawBody, api, aborted }`;
 *   `aborted` turns true when the client disconnected before the response was complete.
 */
/**
 * The first rule of a Chat Completions tool history that `messages` break, in the API's wording, or null:
 * a call's function.arguments is a string (of JSON), every role "tool" message answers a call of the
 * assistant message before the run of tool messages it is in, and every call is answered there.
 * @param {unknown} messages
 */
export function chatProblem(messages) {
  if (!Array.isArray(messages)) return "Invalid type for 'messages': expected an array.";
  let open = null; // ids of the last assistant message's calls not answered yet
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m && m.role === 'tool') {
      if (!open || !open.has(m.tool_call_id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'. (messages[${i}])`;
      open.delete(m.tool_call_id);
      continue;
    }
    if (open && open.size) return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...open].join(', ')}`;
    open = null;
    if (m && m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      open = new Set();
      for (let j = 0; j < m.tool_calls.length; j++) {
        const c = m.tool_calls[j];
        if (c && c.type === 'function') {
          const args = c.function && c.function.arguments;
          if (typeof args !== 'string')
            return `Invalid type for 'messages[${i}].tool_calls[${j}].function.arguments': expected a string, but got ${args === null ? 'null' : typeof args} instead.`;
        }
        open.add(c && c.id);
      }
    }
  }
  return null;
}

export async function startMockLLM(options = {}) {
  let responder = options.respond ?? null;
  const queue = [...(options.queue ?? [])];
  const requests = [];
  const sockets = new Set();
  const timers = new Set();
  let counter = 0;
  let closed = false;

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('error', () => {});
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err) => {
        if (!res.headersSent && !res.destroyed) {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`mock-llm internal error: ${err && err.message}`);
        } else res.destroy();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function wait(ms, res) {
    return new Promise((resolve) => {
      if (res.destroyed || closed) return resolve(false);
      const done = (ok) => { clearTimeout(t); timers.delete(t); res.off('close', onClose); resolve(ok); };
      const onClose = () => done(false);
      const t = setTimeout(() => done(true), ms);
      timers.add(t);
      res.on('close', onClose);
    });
  }

  async function handle(req, res, rawBody) {
    const path = new URL(req.url, 'http://127.0.0.1').pathname;
    const api = apiOf(path);
    let body = null;
    try { body = rawBody === '' ? null : JSON.parse(rawBody); } catch { body = null; }
    const record = { method: req.method, path, headers: { ...req.headers }, body, rawBody, api, aborted: false };
    requests.push(record);
    const n = requests.length;
    res.on('close', () => { if (!res.writableFinished) record.aborted = true; });

    const send = (status, payload, headers = {}, contentType = 'application/json') => {
      if (res.destroyed) return;
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
      res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
      res.end(text);
    };

    if (api === null) return send(404, { error: { message: `mock-llm: no route for ${path}`, type: 'not_found' } });
    if (req.method !== 'POST') return send(405, { error: { message: 'mock-llm: use POST', type: 'method_not_allowed' } });
    if (body === null) return send(400, errorBody(api, 400, 'mock-llm: the request body is not valid JSON'));
    if (options.strictChat && api === 'openai') {
      const problem = chatProblem(body.messages);
      if (problem) { record.status = 400; return send(400, errorBody(api, 400, problem)); }
    }

    let spec = queue.length ? queue.shift() : responder;
    if (typeof spec === 'function') spec = await spec(record);
    if (spec === null || spec === undefined) spec = {};
    if (typeof spec === 'string') spec = { text: spec };

    if (spec.destroy) { req.socket.destroy(); return; }
    if (spec.hang) { await wait(2 ** 31 - 1, res); return; }
    if (spec.delay > 0 && !(await wait(spec.delay, res))) return;

    const status = spec.status ?? 200;
    const headers = spec.headers ?? {};
    let payload;
    let contentType = 'application/json';
    if (spec.raw !== undefined) { payload = String(spec.raw); contentType = spec.contentType ?? 'text/plain'; }
    else if (spec.json !== undefined) payload = spec.json;
    else if (spec.malformed) payload = '{"id": "chatcmpl-broken", "choices": [ {"message": {"content": "unterminated';
    else if (status >= 400) payload = errorBody(api, status, spec.error);
    else if (spec.empty) payload = successBody(api, null, body, n);
    else payload = successBody(api, spec.text ?? defaultSummary(promptOf(api, body)), body, n);

    if (spec.bodyDelay > 0) {
      const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
      res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
      res.flushHeaders();
      if (!(await wait(spec.bodyDelay, res))) return;
      res.end(text);
      return;
    }
    send(status, payload, headers, contentType);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  const { port } = server.address();

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    /** Sets the standing responder: a spec, a function of the recorded request, or null for the default. */
    respondWith(fnOrSpec) { responder = fnOrSpec ?? null; },
    /** Queues one-shot responses, used (in order) before the standing responder. */
    enqueue(...specs) { queue.push(...specs); },
    /** Forgets recorded requests, queued responses and the standing responder. */
    reset() { requests.length = 0; queue.length = 0; responder = null; },
    /** How many client connections are open right now. */
    openSockets() { return sockets.size; },
    /** Stops listening, cancels pending delays and destroys every open socket. Idempotent. */
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      const done = new Promise((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      sockets.clear();
      return done;
    },
  };
}
