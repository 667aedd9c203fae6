// What the page shows of a conversation besides its estimates — the compaction plan, the
// problems validate() finds, the transcript a summarizer reads, the JSON — worked out off the
// page's main thread (a module worker): each is one pass of the WebAssembly core over the
// whole conversation, tens of milliseconds on a long one, and the page must keep answering.
// It loads midfold through the browser entry, as the page does.
//
// Request:  { id, version, bytes?, options, parts }  bytes: the conversation as JSON in UTF-8,
//           sent when `version` is new; options: {keepTail, language, profile, format}; parts:
//           any of 'plan', 'problems', 'transcript', 'json'
// Replies:  { id, part, value } or { id, part, error: {code, message} }, one per part, in the
//           order asked. A request that a newer one overtook while it waited is skipped.

import { initFull, estimateTokens, planCompaction, serialize, validate } from '../js/hosts/browser.js';

const ready = initFull();
ready.catch(() => {}); // (reported with the first request)

let conversation = { version: -1, bytes: null, messages: null, parsed: -1 };
const decoder = new TextDecoder();
let latest = null;
let scheduled = false;

const WORK = {
  plan: ({ keepTail, language, profile, format }) => {
    const p = planCompaction(conversation.messages, { keepTailTokens: keepTail, language, profile, format });
    return { head: p.head, middle: p.middle, tailStart: p.tailStart, onlyPreviousSummary: Boolean(p.onlyPreviousSummary) };
  },
  problems: ({ format }) => validate(conversation.messages, { format }),
  transcript: ({ format, profile }) => {
    const text = serialize(conversation.messages, { format });
    return { text, tokens: estimateTokens(text, { profile }) };
  },
  json: () => JSON.stringify(conversation.messages, null, 2),
};

function describe(error) {
  return { code: error && error.code, message: error && error.message ? error.message : String(error) };
}

async function run() {
  scheduled = false;
  const request = latest;
  latest = null;
  if (!request) return;
  try {
    await ready;
  } catch (error) {
    for (const part of request.parts) self.postMessage({ id: request.id, part, error: describe(error) });
    return;
  }
  if (conversation.messages === null || conversation.parsed !== conversation.version) {
    try {
      conversation.messages = JSON.parse(decoder.decode(conversation.bytes));
      conversation.parsed = conversation.version;
    } catch (error) {
      conversation.messages = null;
      for (const part of request.parts) self.postMessage({ id: request.id, part, error: describe(error) });
      return;
    }
  }
  for (const part of request.parts) {
    if (latest) break; // overtaken: the newer request asks again
    try {
      self.postMessage({ id: request.id, part, value: WORK[part](request.options) });
    } catch (error) {
      self.postMessage({ id: request.id, part, error: describe(error) });
    }
  }
  if (latest && !scheduled) { scheduled = true; setTimeout(run, 0); }
}

self.addEventListener('message', (event) => {
  const { bytes, version } = event.data;
  // The conversation is taken at once, even from a request that a newer one will overtake.
  if (bytes !== undefined && version !== conversation.version) {
    conversation = { version, bytes, messages: null, parsed: -1 };
  }
  latest = event.data;
  if (!scheduled) { scheduled = true; setTimeout(run, 0); }
});
