// The "What it costs" card's replay, off the page's main thread (a module worker): a long
// session takes seconds to replay under four policies, and the page must stay responsive
// meanwhile. It loads midfold through the browser entry, as the page does, and replays one
// policy at a time, so the card can draw each line as soon as it is priced.
//
// Request:  { id, bytes, options, policies }  bytes: the conversation as JSON in UTF-8;
//           options and each policy as simulate() takes them
// Replies:  { id, index, report } for each policy in order (report.results holds that one),
//           then { id, done: true }; or { id, index, error: {code, message} }, and no more.

import { initFull, simulate } from '../js/hosts/browser.js';

// The full module at once: every policy that folds writes its summaries with the digest.
const ready = initFull();
ready.catch(() => {}); // (reported with the first request)

self.addEventListener('message', async (event) => {
  const { id, bytes, options, policies } = event.data;
  let index = 0;
  try {
    await ready;
    const session = JSON.parse(new TextDecoder().decode(bytes));
    for (; index < policies.length; index++) {
      const report = await simulate(session, { ...options, policies: [policies[index]] });
      self.postMessage({ id, index, report });
    }
    self.postMessage({ id, done: true });
  } catch (error) {
    self.postMessage({ id, index, error: { code: error && error.code, message: error && error.message ? error.message : String(error) } });
  }
});
