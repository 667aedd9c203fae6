/**
 * config-updates.js — configuration updates in the head a compaction keeps.
 *
 * A configuration update sets the reasoning effort or the text format for the responses
 * after it, until a later update replaces that setting: a Responses `configuration_update`
 * item, or, in the AI SDK, a system message with empty content whose providerOptions carry
 * `reasoningEffortUpdate` / `textFormatUpdate` (@ai-sdk/openai turns it into that item).
 * midfold reads both as system messages, so a fold keeps them and moves those of the
 * folded middle up into the head, in order. Two updates one after the other are rejected,
 * though (the API answers 400; @ai-sdk/openai throws "Configuration updates cannot be
 * consecutive" before sending), and a head that gathers several would hold such a run.
 * So each run becomes one update that sets what the run's last update of each setting set:
 * the run's last update itself, untouched, when it sets everything the others did (for the
 * AI SDK, under each provider name that reads it), else a new update merging them.
 * docs/openai-responses.md has the rules and their sources.
 */

// A setting, and its providerOptions key in the AI SDK. NAMES is a literal, not
// Object.keys(SETTINGS): a bundler keeps a top-level call in every page, even one that
// never imports the Compactor.
const SETTINGS = { reasoning: 'reasoningEffortUpdate', text: 'textFormatUpdate' };
const NAMES = ['reasoning', 'text'];

const isObject = (v) => v !== null && typeof v === 'object';
const isResponsesUpdate = (m) => m.type === 'configuration_update' && m.role === undefined;

/** True when `m` is a configuration update of either kind. */
function isUpdate(m) {
  if (!isObject(m)) return false;
  if (isResponsesUpdate(m)) return true;
  const options = m.role === 'system' && m.content === '' && m.providerOptions;
  return isObject(options) && Object.values(options).some((o) => isObject(o) && NAMES.some((k) => o[SETTINGS[k]] != null));
}

/**
 * Who reads the updates of `run`, and what each reads from one: the Responses API reads
 * the item itself; @ai-sdk/openai reads a message's options under its provider's name
 * (openai, azure, ...) and, only when that entry is absent, under openai's.
 */
function readersOf(run) {
  if (isResponsesUpdate(run[0])) return [{ read: (m) => m, key: (k) => k }];
  const names = new Set(run.flatMap((m) => Object.keys(m.providerOptions)));
  return [...names].map((name) => ({ name, read: (m) => m.providerOptions[name] ?? m.providerOptions.openai, key: (k) => SETTINGS[k] }));
}

/** The settings `reader` takes from update `m`. */
function settingsRead(m, reader) {
  const o = reader.read(m);
  return isObject(o) ? NAMES.filter((k) => o[reader.key(k)] != null) : [];
}

/** True when every reader takes from the run's last update each setting it takes from the others. */
function lastCovers(run, readers) {
  const last = run[run.length - 1];
  return readers.every((r) => {
    const sets = new Set(settingsRead(last, r));
    return run.every((m) => settingsRead(m, r).every((k) => sets.has(k)));
  });
}

/** One update that gives every reader each setting from the last update of `run` it read it from (a new object). */
function merged(run, readers) {
  if (isResponsesUpdate(run[0])) {
    const out = { type: 'configuration_update' }; // no id: it would name an item the API never stored
    for (const m of run) for (const k of NAMES) if (m[k] != null) out[k] = m[k];
    return out;
  }
  const providerOptions = {};
  for (const r of readers) {
    const into = (providerOptions[r.name] = {});
    for (const m of run) {
      const o = r.read(m);
      if (isObject(o)) for (const [k, value] of Object.entries(o)) if (value != null) into[k] = value;
    }
  }
  return { role: 'system', content: '', providerOptions };
}

/**
 * The head with each run of consecutive configuration updates made one (see above).
 * Returns `{head, dropped}`: the messages to send, and the positions in `head` of the
 * updates no longer sent (each replaced by its run's last or merged one). `head` and its
 * messages are only read; the returned array, and a merged update, are new objects the
 * caller owns.
 * @param {unknown[]} head
 * @returns {{head: unknown[], dropped: number[]}}
 */
export function collapseConfigurationUpdates(head) {
  const out = [], dropped = [];
  for (let i = 0; i < head.length;) {
    let end = i;
    while (end < head.length && isUpdate(head[end])) end++;
    if (end - i < 2) { out.push(head[i]); i = Math.max(end, i + 1); continue; }
    // Updates of the two formats never mix in one conversation; a run is of one kind.
    const run = head.slice(i, end);
    const readers = readersOf(run);
    const complete = lastCovers(run, readers);
    out.push(complete ? run[run.length - 1] : merged(run, readers));
    for (let k = i; k < end; k++) if (!(complete && k === end - 1)) dropped.push(k);
    i = end;
  }
  return { head: out, dropped };
}
