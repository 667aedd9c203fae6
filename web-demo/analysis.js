// The page's side of analysis-worker.js: hands it the conversation (as JSON, once per
// version) and asks for the parts it works out, each a promise. A newer request settles the
// parts an older one still waits for with `undefined` (a render that asked for them has been
// overtaken too).

let worker = null;
let startError = null;
let version = 0;        // of the conversation the page holds
let text = '';
let sentVersion = -1;   // the one the worker has
let nextId = 0;
let waiting = new Map(); // part -> resolve, of the latest request
const encoder = new TextEncoder();

function start() {
  worker = new Worker(new URL('./analysis-worker.js', import.meta.url), { type: 'module', name: 'midfold analysis' });
  worker.addEventListener('message', (event) => {
    const { id, part, value, error } = event.data;
    if (id !== nextId) return;
    const resolve = waiting.get(part);
    if (!resolve) return;
    waiting.delete(part);
    resolve(error ? { error } : { value });
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    startError = { message: event.message || 'the analysis worker failed' };
    for (const resolve of waiting.values()) resolve({ error: startError });
    waiting.clear();
    worker = null;
    sentVersion = -1;
  });
}

/** The conversation changed: `json` is its JSON text (the page's, as it stands). */
export function setConversation(json) {
  text = json;
  version++;
}

/**
 * Asks for `parts` of the conversation set last, with `options` ({keepTail, language, profile,
 * format}); resolves each to {value} or {error: {code, message}}.
 * @param {object} options
 * @param {string[]} parts any of 'plan', 'problems', 'transcript', 'json'
 * @returns {Record<string, Promise<{value?: unknown, error?: {code?: string, message: string}}>>}
 */
export function analyse(options, parts) {
  for (const resolve of waiting.values()) resolve(undefined);
  waiting = new Map();
  const id = ++nextId;
  const answers = {};
  for (const part of parts) answers[part] = new Promise((resolve) => waiting.set(part, resolve));
  if (!worker && !startError) start();
  if (!worker) {
    for (const resolve of waiting.values()) resolve({ error: startError });
    waiting.clear();
    return answers;
  }
  const request = { id, version, options, parts };
  if (sentVersion !== version) {
    // As UTF-8 bytes, handed over: copying a string of megabytes into a message would hold this thread.
    request.bytes = encoder.encode(text);
    sentVersion = version;
    worker.postMessage(request, [request.bytes.buffer]);
  } else {
    worker.postMessage(request);
  }
  return answers;
}
