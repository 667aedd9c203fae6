// Summarizer adapters over fetch: ready-made `summarize` callbacks for the Compactor (their HTTP transport
// is http-transport.js's).
//
// Plain ESM with no dependencies and no host APIs beyond `fetch` and `AbortSignal`, so the same file runs in
// Node, browsers and Cloudflare workerd. The adapters never log anything and never put the API key into an
// error message.

import { SummarizerError, checkString, describe, emptyError, excerpt, mergeHeaders, postJSON, transport } from './http-transport.js';

export { SummarizerError } from './http-transport.js';

const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';

const OPENAI_LABEL = 'OpenAI-compatible summarizer';
const ANTHROPIC_LABEL = 'Anthropic summarizer';

// ---------------------------------------------------------------------------------------------------------
// Request validation (at each call)

function checkRequest(request, label) {
  if (request === null || typeof request !== 'object') {
    throw new TypeError(`${label}: the request must be an object { system, prompt, maxTokens, signal? }`);
  }
  const { system, prompt, maxTokens, signal } = request;
  if (typeof prompt !== 'string') throw new TypeError(`${label}: request.prompt must be a string`);
  if (system !== undefined && system !== null && typeof system !== 'string') {
    throw new TypeError(`${label}: request.system must be a string`);
  }
  if (!Number.isInteger(maxTokens) || maxTokens <= 0) {
    throw new TypeError(`${label}: request.maxTokens must be a positive integer`);
  }
  if (signal !== undefined && signal !== null &&
      (typeof signal !== 'object' || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function')) {
    throw new TypeError(`${label}: request.signal must be an AbortSignal`);
  }
  return { system: system || '', prompt, maxTokens, signal: signal || undefined };
}

// ---------------------------------------------------------------------------------------------------------
// OpenAI-compatible Chat Completions

/**
 * Creates a `summarize` callback that calls an OpenAI-compatible Chat Completions endpoint (OpenAI, DeepSeek,
 * local servers such as llama.cpp, vLLM, Ollama or LM Studio).
 *
 * Each call POSTs `${baseURL}/chat/completions` with the body
 * `{ model, messages: [{role:'system', content: system}, {role:'user', content: prompt}], max_tokens: maxTokens,
 * stream: false }` (`temperature` only when given; the system message only when `system` is non-empty) and the
 * headers `content-type: application/json`, `authorization: Bearer ${apiKey}` (only when an `apiKey` is given),
 * then the extra `headers` (which may override the defaults). The request's `signal` is passed to fetch.
 *
 * Options are validated here, eagerly: `model` is required; a fetch implementation must exist (option `fetch`,
 * or `globalThis.fetch`); otherwise a `TypeError` is thrown.
 *
 * Ownership: the returned function keeps a reference to the given `fetch` function and `headers` object (it
 * does not copy them); `headers` is read again on every call, so later changes to it apply to later calls.
 * When no `fetch` is given, `globalThis.fetch` is looked up at each call. Nothing else of the options is
 * retained. The adapter never logs and never puts the API key into an error message.
 *
 * @param {object} options
 * @param {string} options.model Model name, e.g. `'gpt-4o-mini'`, `'deepseek-chat'`. Required.
 * @param {string} [options.apiKey] Sent as `authorization: Bearer …`; leave out for local servers. Surrounding
 *   whitespace is trimmed.
 * @param {string|URL} [options.baseURL] Default `https://api.openai.com/v1`; trailing slashes are removed.
 * @param {typeof fetch} [options.fetch] A fetch implementation; default `globalThis.fetch`.
 * @param {Record<string,string>|Headers|Array<[string,string]>} [options.headers] Extra request headers.
 * @param {number} [options.temperature] Sent only when given.
 * @param {'max_tokens'|'max_completion_tokens'} [options.maxTokensParam] The body field that carries
 *   `maxTokens`; default `'max_tokens'` (OpenAI's reasoning models need `'max_completion_tokens'`).
 * @returns {(request: {system: string, prompt: string, maxTokens: number, signal?: AbortSignal}) => Promise<string>}
 *   Resolves to the text of `choices[0].message.content` (a string, or the texts of an array of parts joined),
 *   trimmed. Rejects with `SummarizerError` (see its codes) on any failure, or with `TypeError` for a malformed
 *   request (e.g. `maxTokens` not a positive integer).
 * @throws {TypeError} on invalid options.
 */
export function openAISummarizer(options) {
  const fnName = 'openAISummarizer';
  const { apiKey, baseURL, fetchImpl, extraHeaders, redact } = transport(options, fnName, DEFAULT_OPENAI_BASE_URL);
  const { model, temperature } = options;
  if (temperature !== undefined && temperature !== null && (typeof temperature !== 'number' || !Number.isFinite(temperature))) {
    throw new TypeError(`${fnName}: option "temperature" must be a finite number`);
  }
  const maxTokensParam = options.maxTokensParam ?? 'max_tokens';
  if (maxTokensParam !== 'max_tokens' && maxTokensParam !== 'max_completion_tokens') {
    throw new TypeError(`${fnName}: option "maxTokensParam" must be 'max_tokens' or 'max_completion_tokens'`);
  }
  const url = `${baseURL}/chat/completions`;

  return async function summarize(request) {
    const { system, prompt, maxTokens, signal } = checkRequest(request, OPENAI_LABEL);
    const messages = [];
    if (system !== '') messages.push({ role: 'system', content: system });
    messages.push({ role: 'user', content: prompt });
    const body = { model, messages, [maxTokensParam]: maxTokens, stream: false };
    if (temperature !== undefined && temperature !== null) body.temperature = temperature;

    const headers = { 'content-type': 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    mergeHeaders(headers, extraHeaders);

    const { json, text, status } = await postJSON({ label: OPENAI_LABEL, fetchImpl, url, headers, body, signal, redact });
    const out = openAIText(json).trim();
    if (out === '') throw emptyError(OPENAI_LABEL, status, text, redact);
    return out;
  };
}

function openAIText(json) {
  const choice = json && typeof json === 'object' && Array.isArray(json.choices) ? json.choices[0] : undefined;
  const message = choice && typeof choice === 'object' ? choice.message : undefined;
  const content = message && typeof message === 'object' ? message.content : undefined;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    let s = '';
    for (const part of content) {
      if (typeof part === 'string') s += part;
      else if (part && typeof part === 'object' && typeof part.text === 'string' &&
               (part.type === undefined || part.type === 'text' || part.type === 'output_text')) s += part.text;
    }
    return s;
  }
  return '';
}

// ---------------------------------------------------------------------------------------------------------
// Anthropic Messages

/**
 * Creates a `summarize` callback that calls the Anthropic Messages API.
 *
 * Each call POSTs `${baseURL}/v1/messages` with the body
 * `{ model, max_tokens: maxTokens, system, messages: [{role:'user', content: prompt}] }` (`system` only when
 * non-empty) and the headers `content-type: application/json`, `anthropic-version` (default `2023-06-01`),
 * `x-api-key` (only when an `apiKey` is given: a proxy may add it instead),
 * `anthropic-dangerous-direct-browser-access: true` when `browser` is true, then the extra `headers` (which may
 * override the defaults). The request's `signal` is passed to fetch.
 *
 * Options are validated here, eagerly: `model` is required; a fetch implementation must exist (option `fetch`,
 * or `globalThis.fetch`); otherwise a `TypeError` is thrown.
 *
 * Ownership: the returned function keeps a reference to the given `fetch` function and `headers` object (it
 * does not copy them); `headers` is read again on every call, so later changes to it apply to later calls.
 * When no `fetch` is given, `globalThis.fetch` is looked up at each call. Nothing else of the options is
 * retained. The adapter never logs and never puts the API key into an error message.
 *
 * @param {object} options
 * @param {string} options.model Model name, e.g. `'claude-3-5-haiku-latest'`. Required.
 * @param {string} [options.apiKey] Sent as `x-api-key`. Surrounding whitespace is trimmed.
 * @param {string|URL} [options.baseURL] Default `https://api.anthropic.com`; trailing slashes are removed.
 * @param {typeof fetch} [options.fetch] A fetch implementation; default `globalThis.fetch`.
 * @param {Record<string,string>|Headers|Array<[string,string]>} [options.headers] Extra request headers.
 * @param {string} [options.version] The `anthropic-version` header; default `'2023-06-01'`.
 * @param {boolean} [options.browser] Set to true when calling from a browser: adds the header
 *   `anthropic-dangerous-direct-browser-access: true`, which Anthropic requires for CORS requests. This
 *   exposes the key to the page's users; prefer a server-side proxy.
 * @returns {(request: {system: string, prompt: string, maxTokens: number, signal?: AbortSignal}) => Promise<string>}
 *   Resolves to the concatenated text of the response's `content` blocks of type `text`, trimmed. Rejects with
 *   `SummarizerError` (see its codes) on any failure, or with `TypeError` for a malformed request.
 * @throws {TypeError} on invalid options.
 */
export function anthropicSummarizer(options) {
  const fnName = 'anthropicSummarizer';
  const { apiKey, baseURL, fetchImpl, extraHeaders, redact } = transport(options, fnName, DEFAULT_ANTHROPIC_BASE_URL);
  checkString(options.version, 'version', fnName);
  if (options.browser !== undefined && options.browser !== null && typeof options.browser !== 'boolean') {
    throw new TypeError(`${fnName}: option "browser" must be a boolean`);
  }
  const { model } = options;
  const version = options.version || DEFAULT_ANTHROPIC_VERSION;
  const browser = options.browser === true;
  const url = `${baseURL}/v1/messages`;

  return async function summarize(request) {
    const { system, prompt, maxTokens, signal } = checkRequest(request, ANTHROPIC_LABEL);
    const body = { model, max_tokens: maxTokens };
    if (system !== '') body.system = system;
    body.messages = [{ role: 'user', content: prompt }];

    const headers = { 'content-type': 'application/json', 'anthropic-version': version };
    if (apiKey) headers['x-api-key'] = apiKey;
    if (browser) headers['anthropic-dangerous-direct-browser-access'] = 'true';
    mergeHeaders(headers, extraHeaders);

    const { json, text, status } = await postJSON({ label: ANTHROPIC_LABEL, fetchImpl, url, headers, body, signal, redact });
    const out = anthropicText(json).trim();
    if (out === '') throw emptyError(ANTHROPIC_LABEL, status, text, redact);
    return out;
  };
}

function anthropicText(json) {
  const content = json && typeof json === 'object' ? json.content : undefined;
  if (!Array.isArray(content)) return '';
  let s = '';
  for (const block of content) {
    if (block && typeof block === 'object' && block.type === 'text' && typeof block.text === 'string') s += block.text;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------------------
// The providers' own signed compaction: the provider writes the summary, midfold still chooses the cut and
// keeps the tail verbatim. Both resolve to {text, messages, first}: `messages` replace the folded middle and
// go back to the provider unmodified (docs/provider-rules.md).

const ANTHROPIC_COMPACTION_LABEL = 'Anthropic compaction';
const OPENAI_COMPACTION_LABEL = 'OpenAI Responses compaction';
const ANTHROPIC_COMPACT_BETA = 'compact-2026-09-04';

/** The messages to fold, as the Compactor passes them in `request.messages`. */
function foldedMessages(request, label, format) {
  const messages = request && request.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new TypeError(`${label}: request.messages (the messages to fold) is required: use it as a Compactor's summarize`);
  }
  if (request.format !== undefined && request.format !== 'auto' && request.format !== format) {
    throw new TypeError(`${label}: the conversation is in the ${request.format} format; this adapter folds ${format} conversations`);
  }
  return messages;
}

/** Copies of the messages without thinking blocks (messages that held only thinking are left out). */
function withoutThinking(messages) {
  const out = [];
  for (const m of messages) {
    if (!m || !Array.isArray(m.content)) { out.push(m); continue; }
    const content = m.content.filter((b) => !(b && (b.type === 'thinking' || b.type === 'redacted_thinking')));
    if (content.length === m.content.length) out.push(m);
    else if (content.length) out.push({ ...m, content });
  }
  return out;
}

/**
 * Creates a `summarize` callback for the Compactor that lets Anthropic write the summary with its on-demand
 * compaction (beta `compact-2026-09-04`): it POSTs the messages the Compactor folds to `${baseURL}/v1/messages`
 * with `compaction: {type: 'summarize'}` and resolves to `{ text, messages, first: true }`, where `messages` is
 * the one assistant message holding the signed `compaction` block exactly as the API returned it (the
 * folded messages are sent without their thinking blocks: finished turns may leave them out, and they
 * would not verify without the system prompt and tools they were signed after). The Compactor
 * puts that message first in the rebuilt conversation (the API rejects a compaction block anywhere else),
 * followed by the kept system messages and the verbatim tail.
 *
 * Anything but one compaction block with content and `stop_reason: "compaction"` is a failure: a `compaction_*`
 * error (400), an overload (529), an empty response or another stop reason reject with `SummarizerError`, and the
 * Compactor then leaves the conversation exactly as it was (or uses the digest with `fallback: 'digest'`).
 *
 * Ownership: as anthropicSummarizer (keeps `fetch` and `headers` by reference; nothing else is retained). The
 * request's `messages` are read and sent, never changed; the resolved `messages` are new objects holding the
 * response's blocks.
 *
 * @param {object} options as anthropicSummarizer's, plus:
 * @param {string} [options.instructions] replaces the server's summarization prompt (sent as
 *   `compaction.instructions`); default: the server's own.
 * @param {string|object[]} [options.system] the conversation's system prompt, sent as `system`.
 * @param {object[]} [options.tools] the conversation's tools, sent as `tools`.
 * @param {boolean} [options.preservedThinking] true when `system` and `tools` are exactly what every request of
 *   the conversation sends (and `model` is its model): the folded messages then go as they are, thinking
 *   included, and the thinking of the turns kept after the block stays valid ("Compaction and preserved
 *   thinking": when the API writes the summary, the prefix check accepts the replacement). The returned
 *   function says so (`preservesThinking`), and the Compactor then keeps the kept turns' thinking and may fold
 *   while a signed tool loop is in flight. Default false: the thinking is left out, and goes from the kept turns.
 * @returns {((request: {messages: object[], maxTokens: number, signal?: AbortSignal, format?: string}) =>
 *   Promise<{text: string, messages: object[], first: true}>) & {preservesThinking: boolean}}
 * @throws {TypeError} on invalid options.
 */
export function anthropicCompaction(options) {
  const fnName = 'anthropicCompaction';
  const { apiKey, baseURL, fetchImpl, extraHeaders, redact } = transport(options, fnName, DEFAULT_ANTHROPIC_BASE_URL);
  checkString(options.version, 'version', fnName);
  checkString(options.instructions, 'instructions', fnName);
  if (options.tools !== undefined && !Array.isArray(options.tools)) throw new TypeError(`${fnName}: option "tools" must be an array`);
  if (options.preservedThinking !== undefined && typeof options.preservedThinking !== 'boolean')
    throw new TypeError(`${fnName}: option "preservedThinking" must be a boolean, got ${describe(options.preservedThinking)}`);
  const { model, instructions, system, tools } = options;
  const preserved = options.preservedThinking === true;
  const version = options.version || DEFAULT_ANTHROPIC_VERSION;
  const url = `${baseURL}/v1/messages`;
  const label = ANTHROPIC_COMPACTION_LABEL;

  const compactWithAnthropic = async function compactWithAnthropic(request) {
    const messages = foldedMessages(request, label, 'anthropic');
    const maxTokens = Number.isInteger(request.maxTokens) && request.maxTokens > 0 ? request.maxTokens : 4096;
    const signal = request.signal || undefined;
    // With the conversation's own system prompt and tools the folded messages go as they are, and the kept
    // turns' thinking stays bound to what the block replaced. Without them the thinking must be left out (the
    // thinking of finished turns may be): it would not verify after another system prompt and tools.
    const body = { model, max_tokens: maxTokens, messages: preserved ? messages : withoutThinking(messages),
      compaction: instructions && instructions.trim() ? { type: 'summarize', instructions } : { type: 'summarize' } };
    if (system !== undefined && system !== null && system !== '') body.system = system;
    if (tools) body.tools = tools;
    const headers = { 'content-type': 'application/json', 'anthropic-version': version };
    if (apiKey) headers['x-api-key'] = apiKey;
    mergeHeaders(headers, extraHeaders);
    const betas = String(headers['anthropic-beta'] || '').split(',').map((s) => s.trim()).filter(Boolean);
    if (!betas.includes(ANTHROPIC_COMPACT_BETA)) betas.push(ANTHROPIC_COMPACT_BETA);
    headers['anthropic-beta'] = betas.join(',');

    const { json, text, status } = await postJSON({ label, fetchImpl, url, headers, body, signal, redact });
    const content = json && Array.isArray(json.content) ? json.content : [];
    if (json && json.stop_reason !== 'compaction') {
      throw new SummarizerError(`${label}: HTTP ${status}: stop_reason ${JSON.stringify(json.stop_reason)}, not "compaction": ${excerpt(text, redact)}`,
        { status, code: 'empty' });
    }
    const blocks = content.filter((b) => b && b.type === 'compaction');
    if (blocks.length !== 1 || typeof blocks[0].content !== 'string' || blocks[0].content.trim() === '') {
      throw emptyError(label, status, text, redact);
    }
    return { text: blocks[0].content, messages: [{ role: 'assistant', content }], first: true };
  };
  Object.defineProperty(compactWithAnthropic, 'preservesThinking', { value: preserved, enumerable: true });
  return compactWithAnthropic;
}

/**
 * Creates a `summarize` callback for the Compactor that lets OpenAI compact with the Responses API's
 * `POST ${baseURL}/responses/compact`: it sends the input items the Compactor folds and resolves to
 * `{ text: '', messages: output, first: false }`, where `output` is what the API returned (the folded part's
 * user messages followed by one encrypted `compaction` item), put back unmodified between the kept system
 * messages and the verbatim tail. The compaction item is encrypted: there is no readable summary, so
 * `report.summary` is empty.
 *
 * A non-2xx status, a body that is not a `response.compaction` object, or an output without exactly one
 * compaction item rejects with `SummarizerError`; the Compactor then leaves the conversation as it was.
 *
 * Ownership: as openAISummarizer. The request's `messages` are read and sent, never changed.
 *
 * @param {object} options
 * @param {string} options.model Required.
 * @param {string} [options.apiKey] Sent as `authorization: Bearer …`.
 * @param {string|URL} [options.baseURL] Default `https://api.openai.com/v1`.
 * @param {typeof fetch} [options.fetch]
 * @param {Record<string,string>|Headers|Array<[string,string]>} [options.headers]
 * @param {string} [options.instructions] sent as `instructions` (the system or developer message of the
 *   compacted context).
 * @returns {(request: {messages: object[], signal?: AbortSignal, format?: string}) =>
 *   Promise<{text: string, messages: object[], first: false}>}
 * @throws {TypeError} on invalid options.
 */
export function openAIResponsesCompaction(options) {
  const fnName = 'openAIResponsesCompaction';
  const { apiKey, baseURL, fetchImpl, extraHeaders, redact } = transport(options, fnName, DEFAULT_OPENAI_BASE_URL);
  checkString(options.instructions, 'instructions', fnName);
  const { model, instructions } = options;
  const url = `${baseURL}/responses/compact`;
  const label = OPENAI_COMPACTION_LABEL;

  return async function compactWithOpenAI(request) {
    const input = foldedMessages(request, label, 'openai-responses');
    const body = { model, input };
    if (instructions) body.instructions = instructions;
    const headers = { 'content-type': 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    mergeHeaders(headers, extraHeaders);
    const { json, text, status } = await postJSON({ label, fetchImpl, url, headers, body, signal: request.signal || undefined, redact });
    const output = json && json.object === 'response.compaction' && Array.isArray(json.output) ? json.output : null;
    const compactions = output ? output.filter((item) => item && item.type === 'compaction') : [];
    if (!output || compactions.length !== 1 || typeof compactions[0].encrypted_content !== 'string') {
      throw new SummarizerError(`${label}: HTTP ${status}: expected a response.compaction with one compaction item: ${excerpt(text, redact) || '(empty body)'}`,
        { status, code: 'empty' });
    }
    return { text: '', messages: output, first: false };
  };
}
