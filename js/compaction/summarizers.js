// Summarizer adapters over fetch: ready-made `summarize` callbacks for the Compactor.
//
// Plain ESM with no dependencies and no host APIs beyond `fetch` and `AbortSignal`, so the same file runs in
// Node, browsers and Cloudflare workerd. The adapters never log anything and never put the API key into an
// error message.

const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
const DEFAULT_ANTHROPIC_VERSION = '2023-06-01';
const EXCERPT_MAX = 200;

const OPENAI_LABEL = 'OpenAI-compatible summarizer';
const ANTHROPIC_LABEL = 'Anthropic summarizer';

/**
 * The error every adapter failure is turned into (except option and request validation, which throw
 * `TypeError`).
 *
 * Fields:
 * - `status`: the HTTP status of the response, or 0 when there was none (network failure, abort).
 * - `code`: `'http'` (non-2xx status, including 429 and 5xx), `'bad-json'` (the body is not JSON),
 *   `'empty'` (the response holds no text, or only whitespace), `'network'` (fetch rejected; the original
 *   error is `cause`), `'aborted'` (the request's `signal` fired, or fetch rejected with an
 *   `AbortError`/`TimeoutError`).
 * - `cause`: for `'network'` the error fetch rejected with; for `'aborted'` the abort reason (for
 *   `AbortSignal.timeout()` a `DOMException` named `TimeoutError`).
 *
 * Aborts: the adapters do not rethrow the original abort error. They throw a `SummarizerError` with
 * `code: 'aborted'` whose `name` is `'AbortError'` (other codes have the name `'SummarizerError'`), so both
 * `error.name === 'AbortError'` and `error instanceof SummarizerError` hold, whatever reason the signal was
 * aborted with; the original reason is kept as `cause`.
 *
 * Messages start with the adapter's label and, for HTTP failures, carry the status and an excerpt of the
 * response body of at most 200 characters (whitespace collapsed, any occurrence of the API key replaced by
 * `[redacted]`), e.g. `OpenAI-compatible summarizer: HTTP 429: {"error":...}`.
 */
export class SummarizerError extends Error {
  /**
   * @param {string} message
   * @param {{ status?: number, code: 'http'|'bad-json'|'empty'|'network'|'aborted', cause?: unknown }} details
   */
  constructor(message, details) {
    /** @type {{ status?: number, code?: any, cause?: unknown }} */
    const d = details || {};
    super(message, 'cause' in d ? { cause: d.cause } : undefined);
    /** @type {number} */
    this.status = typeof d.status === 'number' ? d.status : 0;
    /** @type {'http'|'bad-json'|'empty'|'network'|'aborted'} */
    this.code = d.code;
    // Set here, as MidfoldError's is: a top-level defineProperty on the prototype is a call a
    // bundler keeps, which put this class into every page that imports midfold.
    this.name = d.code === 'aborted' ? 'AbortError' : 'SummarizerError';
  }
}

// ---------------------------------------------------------------------------------------------------------
// Option validation (runs once, when the adapter is created)

function checkOptions(options, fnName) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fnName}: options must be an object, got ${describe(options)}`);
  }
  if (typeof options.model !== 'string' || options.model.trim() === '') {
    throw new TypeError(`${fnName}: option "model" is required and must be a non-empty string`);
  }
  if (options.fetch !== undefined && options.fetch !== null && typeof options.fetch !== 'function') {
    throw new TypeError(`${fnName}: option "fetch" must be a function (a fetch implementation), got ${describe(options.fetch)}`);
  }
  if ((options.fetch === undefined || options.fetch === null) && typeof globalThis.fetch !== 'function') {
    throw new TypeError(`${fnName}: no fetch implementation available: pass the option "fetch", or run where globalThis.fetch exists`);
  }
  if (options.headers !== undefined && options.headers !== null && typeof options.headers !== 'object') {
    throw new TypeError(`${fnName}: option "headers" must be an object (plain object, Headers or [name, value] pairs), got ${describe(options.headers)}`);
  }
}

function checkApiKey(apiKey, fnName) {
  if (apiKey === undefined || apiKey === null) return undefined;
  if (typeof apiKey !== 'string') {
    throw new TypeError(`${fnName}: option "apiKey" must be a string, got ${describe(apiKey)}`);
  }
  // Keys read from files or environment variables often carry a trailing newline.
  const key = apiKey.trim();
  if (key === '') return undefined;
  // A key that fetch would refuse as a header value would otherwise end up quoted in fetch's own error
  // message; refuse it here without echoing it.
  if (!/^[\x20-\x7e]+$/.test(key)) {
    throw new TypeError(`${fnName}: option "apiKey" must contain only printable ASCII characters (the key is not shown)`);
  }
  return key;
}

function checkBaseURL(baseURL, fallback, fnName) {
  if (baseURL === undefined || baseURL === null || baseURL === '') return fallback;
  const s = typeof baseURL === 'string' ? baseURL : (typeof URL === 'function' && baseURL instanceof URL ? baseURL.href : null);
  if (s === null) throw new TypeError(`${fnName}: option "baseURL" must be a string or URL, got ${describe(baseURL)}`);
  if (!/^https?:\/\//i.test(s)) {
    throw new TypeError(`${fnName}: option "baseURL" must be an absolute http(s) URL, got ${JSON.stringify(s.slice(0, 100))}`);
  }
  return s.replace(/\/+$/, '');
}

/**
 * What every adapter takes from its options, checked in this order (options, key, base URL):
 * the key, the base URL without trailing slashes, the fetch to use (null: globalThis.fetch
 * at each call), the extra headers (kept by reference) and the key's redactor.
 */
function transport(options, fnName, defaultBaseURL) {
  checkOptions(options, fnName);
  const apiKey = checkApiKey(options.apiKey, fnName);
  const baseURL = checkBaseURL(options.baseURL, defaultBaseURL, fnName);
  return { apiKey, baseURL, fetchImpl: options.fetch || null, extraHeaders: options.headers, redact: makeRedactor(apiKey) };
}

function checkString(value, name, fnName) {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw new TypeError(`${fnName}: option "${name}" must be a string, got ${describe(value)}`);
  }
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

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
// Shared request machinery

/** Reads the caller's headers object (plain object, Headers, or [name, value] pairs) into `out`. */
function mergeHeaders(out, headers) {
  if (headers === undefined || headers === null) return out;
  const set = (name, value) => {
    if (value === undefined || value === null) return;
    out[String(name).toLowerCase()] = String(value);
  };
  if (Array.isArray(headers)) {
    for (const pair of headers) set(pair[0], pair[1]);
  } else if (typeof headers.forEach === 'function' && typeof headers.get === 'function') {
    headers.forEach((value, name) => set(name, value));
  } else {
    for (const name of Object.keys(headers)) set(name, headers[name]);
  }
  return out;
}

function makeRedactor(apiKey) {
  if (!apiKey) return (s) => s;
  return (s) => s.split(apiKey).join('[redacted]');
}

/** Collapses whitespace, redacts the key, and cuts to EXCERPT_MAX characters (never inside a surrogate pair). */
function excerpt(text, redact) {
  let s = redact(String(text)).replace(/\s+/g, ' ').trim();
  if (s.length <= EXCERPT_MAX) return s;
  let cut = EXCERPT_MAX - 1;
  const c = s.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut -= 1;
  return s.slice(0, cut) + '…';
}

function errorText(error) {
  if (error === undefined) return '';
  if (error && typeof error === 'object') {
    let s = `${error.name || 'Error'}: ${error.message || ''}`;
    const inner = error.cause;
    if (inner && typeof inner === 'object') {
      if (inner.code) s += ` (${inner.code})`;
      else if (inner.message) s += ` (${inner.message})`;
    }
    return s;
  }
  return String(error);
}

function isAbortLike(error) {
  return !!error && typeof error === 'object' && (error.name === 'AbortError' || error.name === 'TimeoutError');
}

function abortedError(label, reason, redact) {
  const why = reason && typeof reason === 'object' && reason.name === 'TimeoutError' ? 'timed out' : 'aborted';
  const detail = reason === undefined ? '' : `: ${excerpt(errorText(reason), redact)}`;
  return new SummarizerError(`${label}: request ${why}${detail}`, { status: 0, code: 'aborted', cause: reason });
}

/**
 * Settles like `promise`, except that it rejects as soon as `signal` aborts: the caller's abort is honored
 * promptly even if a custom fetch ignores the signal.
 */
function raceAbort(promise, signal) {
  if (!signal) return promise;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      promise.then(() => {}, () => {});
      reject(new AbortSignalFired(signal.reason));
      return;
    }
    const onAbort = () => reject(new AbortSignalFired(signal.reason));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => { signal.removeEventListener('abort', onAbort); resolve(v); },
      (e) => { signal.removeEventListener('abort', onAbort); reject(e); },
    );
  });
}

class AbortSignalFired {
  constructor(reason) { this.reason = reason; }
}

/**
 * Does one POST and returns the parsed JSON body of a 2xx response; every failure becomes a SummarizerError.
 */
async function postJSON({ label, fetchImpl, url, headers, body, signal, redact }) {
  if (signal && signal.aborted) throw abortedError(label, signal.reason, redact);

  const init = { method: 'POST', headers, body: JSON.stringify(body) };
  if (signal) init.signal = signal;

  const fail = (error) => {
    if (error instanceof AbortSignalFired) return abortedError(label, error.reason, redact);
    if ((signal && signal.aborted) || isAbortLike(error)) {
      return abortedError(label, signal && signal.aborted ? signal.reason : error, redact);
    }
    return null;
  };

  let response;
  try {
    const f = fetchImpl || globalThis.fetch;
    response = await raceAbort(Promise.resolve().then(() => f(url, init)), signal);
  } catch (error) {
    throw fail(error) || new SummarizerError(
      `${label}: network error: ${excerpt(errorText(error), redact)}`, { status: 0, code: 'network', cause: error });
  }
  if (!response || typeof response !== 'object' || typeof response.status !== 'number' || typeof response.text !== 'function') {
    throw new SummarizerError(`${label}: network error: fetch resolved to something that is not a Response`,
      { status: 0, code: 'network' });
  }

  const status = response.status;
  let text;
  try {
    text = await raceAbort(Promise.resolve().then(() => response.text()), signal);
  } catch (error) {
    const aborted = fail(error);
    if (aborted) throw aborted;
    if (!(status >= 200 && status < 300)) {
      throw new SummarizerError(`${label}: HTTP ${status}: (body unreadable)`, { status, code: 'http', cause: error });
    }
    throw new SummarizerError(`${label}: network error while reading the body of HTTP ${status}: ${excerpt(errorText(error), redact)}`,
      { status, code: 'network', cause: error });
  }

  if (!(status >= 200 && status < 300)) {
    throw new SummarizerError(`${label}: HTTP ${status}: ${excerpt(text, redact) || '(empty body)'}`, { status, code: 'http' });
  }
  try {
    return { json: JSON.parse(text), text, status };
  } catch (error) {
    throw new SummarizerError(`${label}: HTTP ${status}: response is not valid JSON: ${excerpt(text, redact) || '(empty body)'}`,
      { status, code: 'bad-json', cause: error });
  }
}

function emptyError(label, status, text, redact) {
  return new SummarizerError(`${label}: HTTP ${status}: response holds no text: ${excerpt(text, redact) || '(empty body)'}`,
    { status, code: 'empty' });
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
