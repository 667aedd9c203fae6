/**
 * options.js — the `recall` option of the Compactor and the integrations, read once: `true`
 * (an archive in memory, for this process: what a single-process agent needs) or
 * `{archive}` (recallArchive's, over a store the host owns) or the archive's own options
 * (`{store, conversation, maxBytes, maxEntries, maxAgeMs}`), with `pageTokens` and `search`
 * for the tool (tool.js).
 */
import { MidfoldError } from '../core/errors.js';
import { optionsObject } from '../core/options.js';
import { memoryArchiveStore, recallArchive } from './archive.js';
import { checkArchive } from './micro.js';
import { recallExecutor } from './tool.js';

const NAMES = ['archive', 'store', 'conversation', 'maxBytes', 'maxEntries', 'maxAgeMs', 'pageTokens', 'search'];

function randomConversation() {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(12));
  return `c-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** The archive `recall: true` means in an integration (made at its first use). */
let shared = null;

/**
 * @param {unknown} value the option as given
 * @param {string} fn who is asking, for the error
 * @param {{shared?: boolean}} [how] `shared`: `true` means one archive in memory for the process
 *   (the integrations: an instance built inside each call must find what the one before archived)
 * @returns {null | {archive: ReturnType<typeof recallArchive>, executor: ReturnType<typeof recallExecutor>}}
 */
export function recallSetup(value, fn, how = {}) {
  if (value === undefined || value === false) return null;
  if (value !== true && (!value || typeof value !== 'object'))
    throw new MidfoldError('invalid-option', `${fn}: recall must be true, false or {archive} / {store, conversation}`);
  const o = value === true ? {} : optionsObject(value, `${fn} recall`, NAMES);
  let archive;
  if (o.archive !== undefined) {
    if (o.store !== undefined || o.conversation !== undefined)
      throw new MidfoldError('invalid-option', `${fn}: recall takes an archive or {store, conversation}, not both`);
    archive = checkArchive(o.archive, fn);
  } else if (value === true && how.shared) {
    shared ??= recallArchive({ store: memoryArchiveStore(), conversation: randomConversation() });
    archive = shared;
  } else {
    archive = recallArchive({
      store: o.store ?? memoryArchiveStore(), conversation: o.conversation ?? randomConversation(),
      maxBytes: o.maxBytes, maxEntries: o.maxEntries, maxAgeMs: o.maxAgeMs,
    });
  }
  const executor = recallExecutor({ archive, search: o.search, pageTokens: o.pageTokens });
  return { archive, executor };
}
