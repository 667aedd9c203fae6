// The HTTP transport of the summarizer adapters (summarizers.js): their shared options (key, base URL,
// fetch, headers), one JSON POST over fetch with the caller's abort honored, and SummarizerError, which every
// failure becomes.
//
// Plain ESM with no dependencies and no host APIs beyond `fetch` and `AbortSignal`. Nothing here logs, and no
// error message holds the API key.

const EXCERPT_MAX = 200;
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
export function transport(options, fnName, defaultBaseURL) {
  checkOptions(options, fnName);
  const apiKey = checkApiKey(options.apiKey, fnName);
  const baseURL = checkBaseURL(options.baseURL, defaultBaseURL, fnName);
  return { apiKey, baseURL, fetchImpl: options.fetch || null, extraHeaders: options.headers, redact: makeRedactor(apiKey) };
}

/** Throws a TypeError naming `name` unless `value` is a string, undefined or null. */
export function checkString(value, name, fnName) {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw new TypeError(`${fnName}: option "${name}" must be a string, got ${describe(value)}`);
  }
}

/** What `value` is, for an error message (never the value itself: it may be a key). */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

// ---------------------------------------------------------------------------------------------------------
// Shared request machinery

/** Reads the caller's headers object (plain object, Headers, or [name, value] pairs) into `out`. */
export function mergeHeaders(out, headers) {
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
export function excerpt(text, redact) {
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
 * Does one POST and returns the parsed JSON body of a 2xx response (`{json, text, status}`); every failure
 * becomes a SummarizerError. Ownership: sends `headers` and `body` (serialized once), keeps nothing.
 */
export async function postJSON({ label, fetchImpl, url, headers, body, signal, redact }) {
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

/** The SummarizerError of a 2xx response that holds no text (code 'empty'). */
export function emptyError(label, status, text, redact) {
  return new SummarizerError(`${label}: HTTP ${status}: response holds no text: ${excerpt(text, redact) || '(empty body)'}`,
    { status, code: 'empty' });
}
