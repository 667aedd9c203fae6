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
 * the run's last update itself, untouched, when it sets everything the others did, else a
 * new update merging them. docs/openai-responses.md has the rules and their sources.
 */

// A setting, and its providerOptions key in the AI SDK. NAMES is a literal, not
// Object.keys(SETTINGS): a bundler keeps a top-level call in every page, even one that
// never imports the Compactor.
const SETTINGS = { reasoning: 'reasoningEffortUpdate', text: 'textFormatUpdate' };
const NAMES = ['reasoning', 'text'];

/** The names of the settings update `m` sets ('reasoning', 'text'), or null when it is no update. */
function settingsOf(m) {
  if (!m || typeof m !== 'object') return null;
  if (m.type === 'configuration_update' && m.role === undefined) return NAMES.filter((k) => m[k] != null);
  const options = m.role === 'system' && m.content === '' && m.providerOptions;
  if (!options || typeof options !== 'object') return null;
  const set = NAMES.filter((k) => Object.values(options).some((o) => o && o[SETTINGS[k]] != null));
  return set.length ? set : null;
}

/** One update with each setting from the last of `run` that sets it (a new object). */
function merged(run) {
  if (run[0].type === 'configuration_update') {
    const out = { type: 'configuration_update' }; // no id: it would name an item the API never stored
    for (const m of run) for (const k of NAMES) if (m[k] != null) out[k] = m[k];
    return out;
  }
  // @ai-sdk/openai reads a message's options under its provider's name (openai, azure, ...)
  // and, only when that entry is absent, under openai: each name gets what it would have
  // read from each update of the run, in order.
  const names = new Set(run.flatMap((m) => Object.keys(m.providerOptions)));
  const providerOptions = {};
  for (const name of names) {
    const into = (providerOptions[name] = {});
    for (const m of run) {
      const o = m.providerOptions[name] ?? m.providerOptions.openai;
      if (o && typeof o === 'object') for (const [k, value] of Object.entries(o)) if (value != null) into[k] = value;
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
    while (end < head.length && settingsOf(head[end])) end++;
    if (end - i < 2) { out.push(head[i]); i = Math.max(end, i + 1); continue; }
    const run = head.slice(i, end);
    const last = run[run.length - 1];
    const lastSets = new Set(settingsOf(last));
    const complete = run.every((m) => settingsOf(m).every((k) => lastSets.has(k)));
    // Updates of the two formats never mix in one conversation; a run is of one kind.
    out.push(complete ? last : merged(run));
    for (let k = i; k < end; k++) if (!(complete && k === end - 1)) dropped.push(k);
    i = end;
  }
  return { head: out, dropped };
}
