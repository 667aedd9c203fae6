/**
 * simulate.js — what a context policy costs on a real session. A session (the final
 * array of messages) is replayed turn by turn: every assistant message marks a call to
 * the model, whose request was the prefix before it. Each policy manages its own copy of
 * the conversation before each call, exactly as an agent would (micro-compaction, the
 * Compactor with the offline digest as summarizer, Anthropic's server-side clearing),
 * and each request is priced against the requests before it by the provider's caching
 * rules (js/pricing/, docs/cost.md): a prefix the cache holds is billed at the cached
 * price, the rest at the base (or cache-write) price.
 */
import { MidfoldError } from '../core/errors.js';
import { applyEditsToCopy } from '../core/apply.js';
import { COMPACT, detectFormat, ensureTier, estimateTokens, signedThinking } from '../core/api.js';
import { checkMessageCount, optionsObject } from '../core/options.js';
import { checkDepth } from '../core/depth.js';
import { SEED_POLICY, deprecated } from '../core/deprecation.js';
import { Compactor, PRICING_NAMES, digestSummarizer } from '../compaction/compactor.js';
import { PRICING } from '../pricing/index.js';
import { GrowingMicroCompaction, GrowingMicroPlan, GrowingServerClearing } from './clearing.js';
import { isSystem, sessionTurns } from './turns.js';
import { serverKeptThinking } from '../core/thinking-keep.js';
import { ServerCompaction } from './server-compaction.js';
import { RecallModel } from './recall.js';

export { sessionTurns };
/** The provider caches and the pricing resolver, for pricing recorded requests (requests.js). */
export { CACHES, resolvePricing };

function optionError(message) { return new MidfoldError('invalid-option', message); }

// ---------------------------------------------------------------- policies

/**
 * The named policies. `compactor` options go to new Compactor(); `micro` options to
 * planMicroCompact on the policy's own conversation (kept between turns, as a client
 * does); `contextEditing` clears the full history anew on every request, as Anthropic's
 * server does (clear_tool_uses_20250919: trigger 100,000 input tokens, keep 3 tool uses,
 * clear_at_least unset), counting in the provider's tokens.
 */
export const POLICIES = {
  none: { label: 'no management' },
  'micro-every-turn': { label: 'microCompact every turn, keep 3', micro: { keepRecent: 3 } },
  'every-turn': { label: 'every turn: micro keep 3, compact at 50k', compactor: { threshold: 50000, keepRecent: 3, policy: 'every-turn' } },
  'context-editing': { label: 'Anthropic context editing defaults (100k, keep 3)', contextEditing: { trigger: 100000, keep: 3, clearAtLeast: 0 } },
  'micro-batched': { label: 'microCompact at 60k, clear >= 30k, keep 3', micro: { keepRecent: 3, trigger: 60000, clearAtLeast: 30000 } },
  defaults: { label: "midfold's defaults (Compactor)", compactor: {} },
  // Clearing early and folding early, with what is cleared archived and recalled (recall.js;
  // docs/recall.md, "What it costs"): not a default, since it needs the host to run the recall tool.
  recall: { label: 'recall: fold at 20k, micro at 12k (clear >= 6k, keep 1), recall pages of 4k',
    compactor: { threshold: 20000, microTrigger: 12000, clearAtLeast: 6000, keepRecent: 1 }, recall: { page: 4000 } },
};

/** What simulate() compares when no policies are given. */
export const DEFAULT_POLICIES = ['none', 'every-turn', 'context-editing', 'micro-batched', 'defaults'];

/** Old policy names that still resolve, each announced once (js/core/deprecation.js). */
const DEPRECATED_NAMES = { seed: { to: 'every-turn', deprecation: SEED_POLICY } };

const NUMBER_KEYS = {
  micro: ['keepRecent', 'trigger', 'clearAtLeast'],
  compactor: ['threshold', 'contextWindow', 'keepRecent', 'microTrigger', 'clearAtLeast', 'maxSummaryTokens', 'keepTail', 'keepTailMessages',
    'thinkingKeep', 'dropBeforeLast'],
  contextEditing: ['trigger', 'keep', 'clearAtLeast'],
  serverCompaction: ['trigger', 'maxSummaryTokens'],
  recall: ['page'],
};
/**
 * The knobs the grammar spells as words (js/core/knobs.js): clearToolInputs=true|false
 * (micro and compactor), and for the Compactor dropTools=a|b with dropBeforeLast=N
 * (dropToolCalls), reasoning=before-last-message, thinkingKeep=N (thinking {keep: N}) and
 * thinking=prefix-bound|unbound (its binding).
 */
const WORD_KEYS = { micro: ['clearToolInputs'], compactor: ['clearToolInputs', 'dropTools', 'reasoning', 'thinking'], contextEditing: [], serverCompaction: [], recall: [] };

/**
 * `kind:key=value,key=value` (kinds: micro, compactor, context-editing, and recall, which adds the
 * recall model to the others: recall.js; `recall` alone is `recall:page=2000`) to a policy part.
 */
function parsePart(text) {
  const [kindText, args = ''] = text.split(':');
  const kind = kindText === 'context-editing' ? 'contextEditing' : kindText === 'server-compaction' ? 'serverCompaction' : kindText;
  if (!NUMBER_KEYS[kind]) throw optionError(`unknown policy ${JSON.stringify(text)}; known: ${Object.keys(POLICIES).join(', ')}, or micro:…, compactor:…, context-editing:…, server-compaction:…, recall`);
  const part = {};
  for (const pair of args.split(',').filter(Boolean)) {
    const [key, value] = pair.split('=');
    if ((key === 'policy' && kind === 'compactor') || (key === 'profile' && kind !== 'contextEditing' && kind !== 'serverCompaction')) { part[key] = value; continue; }
    if (kind === 'recall' && key === 'page' && Number(value) === 0) throw optionError('policy recall: page must be at least 1 token');
    if ((WORD_KEYS[kind] || []).includes(key)) {
      if (key === 'clearToolInputs') {
        if (value !== 'true' && value !== 'false') throw optionError(`policy ${kind}: clearToolInputs must be true or false, got ${JSON.stringify(value)}`);
        part.clearToolInputs = value === 'true';
      } else if (key === 'dropTools') part.dropTools = String(value ?? '').split('|').filter(Boolean);
      else part[key] = value;
      continue;
    }
    if (!NUMBER_KEYS[kind].includes(key))
      throw optionError(`policy ${kind}: unknown key ${JSON.stringify(key)}; known: ${[...NUMBER_KEYS[kind], ...(WORD_KEYS[kind] || [])].join(', ')}`);
    // threshold=80% is threshold {fraction: 0.8}: of contextWindow=N when the part names it, else of simulate's window
    if (kind === 'compactor' && key === 'threshold' && /^\d+(?:\.\d+)?%$/.test(String(value))) {
      part.threshold = { fraction: Number(value.slice(0, -1)) / 100 };
      continue;
    }
    const n = Number(String(value).replace(/k$/i, '000'));
    if (!Number.isInteger(n) || n < 0) throw optionError(`policy ${kind}: ${key} must be a whole number, got ${JSON.stringify(value)}`);
    part[key] = n;
  }
  // (keepTail=N is keepTail.tokens, keepTailMessages=N keepTail.messages: one key each in the grammar)
  if (kind === 'compactor' && (part.keepTail !== undefined || part.keepTailMessages !== undefined)) {
    const keepTail = {};
    if (part.keepTail !== undefined) keepTail.tokens = part.keepTail;
    if (part.keepTailMessages !== undefined) keepTail.messages = part.keepTailMessages;
    delete part.keepTailMessages;
    part.keepTail = keepTail;
  }
  // (thinkingKeep=N is thinking {keep: N}, beside thinking=BINDING; dropTools with dropBeforeLast is dropToolCalls)
  if (kind === 'compactor' && part.thinkingKeep !== undefined) {
    part.thinking = { keep: part.thinkingKeep, ...(part.thinking !== undefined ? { binding: part.thinking } : {}) };
    delete part.thinkingKeep;
  }
  if (kind === 'compactor' && (part.dropTools !== undefined || part.dropBeforeLast !== undefined)) {
    if (part.dropTools === undefined || part.dropBeforeLast === undefined)
      throw optionError('policy compactor: dropTools=a|b and dropBeforeLast=N go together (dropToolCalls {tools, beforeLast})');
    part.dropToolCalls = { tools: part.dropTools, beforeLast: part.dropBeforeLast };
    delete part.dropTools;
    delete part.dropBeforeLast;
  }
  return [kind, part];
}

/** A policy name, a `+`-joined list of parts, or an object {name?, label?, micro?, compactor?, contextEditing?}. */
export function resolvePolicy(policy) {
  if (typeof policy === 'string') {
    if (Object.prototype.hasOwnProperty.call(POLICIES, policy)) return { name: policy, ...POLICIES[policy] };
    if (Object.prototype.hasOwnProperty.call(DEPRECATED_NAMES, policy)) {
      const { to, deprecation } = DEPRECATED_NAMES[policy];
      deprecated(deprecation);
      return { name: policy, ...POLICIES[to] };
    }
    const spec = { name: policy, label: policy };
    for (const text of policy.split('+')) {
      const [kind, part] = parsePart(text);
      spec[kind] = part;
    }
    return spec;
  }
  if (!policy || typeof policy !== 'object') throw optionError('a policy is a name or an object {micro?, compactor?, contextEditing?}');
  // (a misspelt part would make a policy that manages nothing, priced as "no management")
  optionsObject(policy, 'policy', ['name', 'label', 'micro', 'compactor', 'contextEditing', 'serverCompaction', 'recall']);
  if (policy.contextEditing !== undefined) optionsObject(policy.contextEditing, 'policy contextEditing', NUMBER_KEYS.contextEditing);
  if (policy.serverCompaction !== undefined) optionsObject(policy.serverCompaction, 'policy serverCompaction', NUMBER_KEYS.serverCompaction);
  if (policy.recall !== undefined) {
    optionsObject(policy.recall, 'policy recall', NUMBER_KEYS.recall);
    const page = policy.recall.page;
    if (page !== undefined && !(Number.isInteger(page) && page >= 1)) throw optionError('policy recall: page must be a whole number of tokens >= 1');
  }
  const name = typeof policy.name === 'string' ? policy.name : 'custom';
  return { label: name, ...policy, name };
}

// ---------------------------------------------------------------- sessions

/** The messages of a session: the array itself, a request body's messages, a Responses body's input. */
function sessionMessages(session) {
  if (Array.isArray(session)) return session;
  if (!session || typeof session !== 'object') return null;
  if (Array.isArray(session.messages)) return session.messages;
  return Array.isArray(session.input) ? session.input : null;
}

// ---------------------------------------------------------------- requests as priced items

/**
 * A message as a priced item: its serialized text (what a cache compares), token count and
 * block count, read once per message object (`memo`).
 */
function itemOf(m, memo, profile) {
  let item = memo.get(m);
  if (!item) {
    const blocks = Array.isArray(m && m.content) ? Math.max(1, m.content.length) : 1;
    item = { key: JSON.stringify(m), tokens: estimateTokens([m], { profile }), blocks };
    memo.set(m, item);
  }
  return item;
}

/** A list of messages as items. */
function requestItems(messages, memo, profile) {
  return messages.map((m) => itemOf(m, memo, profile));
}

/**
 * Each turn's request as a list of items (the fixed head — system and tools — then each
 * message) with their cumulative tokens and blocks (`sums.tokens[k]` covers items[0..k)),
 * built from the last turn's: the start both requests share (the same message objects) is
 * kept, and only the messages after it are read, from `memo` when they were priced before.
 * Rebuilding every request whole made each turn cost the whole history. forget(message)
 * tells it a message was changed in place.
 */
function requestBuilder(head, memo, profile) {
  let messages = [];
  let items = head ? [head] : [];
  let tokens = head ? [0, head.tokens] : [0];
  let blocks = head ? [0, head.blocks] : [0];
  const first = head ? 1 : 0;
  const stale = new Set();
  // kept[t]: how many leading items turn t's request kept from turn t - 1's (the same objects)
  const kept = [];
  const build = (request) => {
    let k = 0;
    for (const end = Math.min(request.length, messages.length); k < end && request[k] === messages[k];) k++;
    if (stale.size) {
      for (let i = 0; i < k; i++) if (stale.has(messages[i])) { k = i; break; }
      for (const m of stale) memo.delete(m);
      stale.clear();
    }
    // (a cache entry keeps the arrays of its request: each turn has its own)
    const nextItems = items.slice(0, first + k);
    const nextTokens = tokens.slice(0, first + k + 1);
    const nextBlocks = blocks.slice(0, first + k + 1);
    for (let i = k; i < request.length; i++) {
      const it = itemOf(request[i], memo, profile);
      nextItems.push(it);
      nextTokens.push(nextTokens[nextTokens.length - 1] + it.tokens);
      nextBlocks.push(nextBlocks[nextBlocks.length - 1] + it.blocks);
    }
    messages = request.slice();
    nextItems.lineage = { kept, turn: kept.length };
    kept.push(kept.length === 0 ? 0 : first + k);
    items = nextItems; tokens = nextTokens; blocks = nextBlocks;
    return { items, sums: { tokens, blocks } };
  };
  build.forget = (m) => { stale.add(m); };
  return build;
}

/**
 * How many leading items two requests share. Requests of one builder know how they descend
 * from each other (`lineage`): the items a run of turns kept from turn to turn are the same
 * objects, so only what follows them is compared. A cache compares each request with many
 * earlier ones; walking each pair from the start made every turn cost the whole history again.
 */
function commonItems(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  const la = a.lineage, lb = b.lineage;
  if (la !== undefined && lb !== undefined && la.kept === lb.kept) {
    const kept = la.kept;
    const from = Math.min(la.turn, lb.turn), to = Math.max(la.turn, lb.turn);
    let same = n;
    for (let t = from + 1; t <= to && same > 0; t++) if (kept[t] < same) same = kept[t];
    i = same;
  }
  while (i < n && (a[i] === b[i] || a[i].key === b[i].key)) i++;
  return i;
}

// ---------------------------------------------------------------- provider caches

/**
 * Anthropic: breakpoints on the fixed head (tools, system prompt, leading system messages)
 * and on the last message, as an agent places them. Each
 * request reads the longest live entry that it matches whole and that ends within 20
 * blocks before a breakpoint, and writes everything after it up to the last breakpoint.
 */
function anthropicCache(pricing, model, ttlName, match) {
  if (match === 'prefix') return prefixCache(pricing, model, ttlName);
  const ttl = pricing.ttlSeconds[ttlName];
  const writePrice = ttlName === '1h' ? model.cacheWrite1h : model.cacheWrite5m;
  const entries = [];
  return function price(items, sums, now, fixedEnd) {
    for (let i = entries.length - 1; i >= 0; i--) if (entries[i].expires < now) entries.splice(i, 1);
    const total = sums.tokens[items.length];
    const breakpoints = fixedEnd > 0 && fixedEnd < items.length ? [fixedEnd, items.length] : [items.length];
    let read = 0, hit = null;
    for (const b of breakpoints) {
      for (const e of entries) {
        if (e.n > b || sums.blocks[b] - e.blocks > pricing.lookbackBlocks || e.tokens <= read) continue;
        if (commonItems(items, e.items) >= e.n) { read = e.tokens; hit = e; }
      }
    }
    if (hit) hit.expires = now + ttl;
    let written = 0;
    for (const b of breakpoints) {
      const tokens = sums.tokens[b];
      if (tokens < model.minCacheable || tokens <= read) continue;
      written = Math.max(written, tokens - read);
      if (!entries.some((e) => e.n === b && e.tokens === tokens && commonItems(items, e.items) >= b))
        entries.push({ items, n: b, tokens, blocks: sums.blocks[b], expires: now + ttl });
    }
    const uncached = total - read - written;
    return { read, written, uncached, usd: (read * model.cacheRead + written * writePrice + uncached * model.input) / 1e6 };
  };
}

/**
 * OpenAI: the longest prefix shared with a recent request (the last 16 still alive),
 * counted from 1,024 tokens on in steps of 128; no charge for writing.
 */
function openAICache(pricing, model, ttlName) {
  const ttl = pricing.ttlSeconds[ttlName];
  const seen = [];
  return function price(items, sums, now) {
    for (let i = seen.length - 1; i >= 0; i--) if (seen[i].expires < now) seen.splice(i, 1);
    const total = sums.tokens[items.length];
    let best = 0, from = null;
    for (const s of seen) {
      const shared = sums.tokens[commonItems(items, s.items)];
      if (shared > best) { best = shared; from = s; }
    }
    const read = best >= pricing.minimumPrefix ? Math.floor(best / pricing.step) * pricing.step : 0;
    if (from && read) from.expires = now + ttl;
    seen.push({ items, expires: now + ttl });
    if (seen.length > 16) seen.shift();
    const uncached = total - read;
    return { read, written: 0, uncached, usd: (read * model.cachedInput + uncached * model.input) / 1e6 };
  };
}

/**
 * DeepSeek: units at the end of each request's input and of its output (the assistant
 * message that followed), and at a prefix two requests were seen to share; a request
 * hits the longest live unit it matches whole, in 64-token units.
 */
function deepSeekCache(pricing, model, ttlName) {
  const ttl = pricing.ttlSeconds[ttlName];
  let units = [];
  let previous = null;
  const price = function price(items, sums, now) {
    units = units.filter((u) => u.expires >= now);
    const total = sums.tokens[items.length];
    let best = 0, hit = null;
    for (const u of units) {
      if (u.tokens <= best || u.n > items.length) continue;
      if (commonItems(items, u.items) >= u.n) { best = u.tokens; hit = u; }
    }
    if (hit) hit.expires = now + ttl;
    const read = Math.floor(best / pricing.unitTokens) * pricing.unitTokens;
    if (previous) {
      const shared = commonItems(items, previous);
      if (shared > 0 && shared < previous.length && shared < items.length)
        units.push({ items, n: shared, tokens: sums.tokens[shared], expires: now + ttl });
    }
    units.push({ items, n: items.length, tokens: total, expires: now + ttl });
    if (units.length > 64) units = units.slice(-64);
    previous = items;
    const uncached = total - read;
    return { read, written: 0, uncached, usd: (read * model.cacheHit + uncached * model.cacheMiss) / 1e6 };
  };
  /** The end of the model's output: the request plus the assistant message(s) it wrote. */
  price.output = (items, outputItems, tokens, now) => {
    units.push({ items: items.concat(outputItems), n: items.length + outputItems.length, tokens, expires: now + ttl });
  };
  return price;
}

/**
 * Anthropic priced as if every earlier prefix were cached (a breakpoint on every block):
 * the longest prefix shared with a live request is read, the rest written. An upper bound
 * on what breakpoints can give, and the model of the first measurement.
 */
function prefixCache(pricing, model, ttlName) {
  const ttl = pricing.ttlSeconds[ttlName];
  const writePrice = ttlName === '1h' ? model.cacheWrite1h : model.cacheWrite5m;
  const seen = [];
  return function price(items, sums, now) {
    for (let i = seen.length - 1; i >= 0; i--) if (seen[i].expires < now) seen.splice(i, 1);
    const total = sums.tokens[items.length];
    let read = 0, from = null;
    for (const s of seen) {
      const shared = sums.tokens[commonItems(items, s.items)];
      if (shared > read) { read = shared; from = s; }
    }
    if (read < model.minCacheable) { read = 0; from = null; }
    if (from) from.expires = now + ttl;
    seen.push({ items, expires: now + ttl });
    if (seen.length > 16) seen.shift();
    const written = total >= model.minCacheable ? total - read : 0;
    const uncached = total - read - written;
    return { read, written, uncached, usd: (read * model.cacheRead + written * writePrice + uncached * model.input) / 1e6 };
  };
}

const CACHES = { breakpoints: anthropicCache, prefix: openAICache, units: deepSeekCache };

/** The base price of one input token and one output token (for the summarizer's calls). */
function basePrices(pricing, model) {
  if (pricing.caching === 'units') return { input: model.cacheMiss, output: model.output };
  return { input: model.input, output: model.output };
}

function resolvePricing(options) {
  let pricing = options.pricing === undefined ? 'anthropic' : options.pricing;
  if (typeof pricing === 'string') {
    if (!Object.prototype.hasOwnProperty.call(PRICING, pricing)) throw optionError(`unknown pricing ${JSON.stringify(pricing)}; known: ${Object.keys(PRICING).join(', ')}`);
    pricing = PRICING[pricing];
  }
  if (!pricing || typeof pricing !== 'object' || !CACHES[pricing.caching] || !pricing.models)
    throw optionError('pricing must be anthropic, openai, deepseek or a pricing object like js/pricing/*.js');
  const modelName = options.model === undefined ? pricing.defaultModel : options.model;
  const model = pricing.models[modelName];
  if (!model) throw optionError(`unknown model ${JSON.stringify(modelName)} for ${pricing.provider}; known: ${Object.keys(pricing.models).join(', ')}`);
  const ttl = options.ttl === undefined ? pricing.defaultTtl : options.ttl;
  if (!Object.prototype.hasOwnProperty.call(pricing.ttlSeconds, ttl))
    throw optionError(`unknown cache lifetime ${JSON.stringify(ttl)} for ${pricing.provider}; known: ${Object.keys(pricing.ttlSeconds).join(', ')}`);
  return { pricing, modelName, model, ttl };
}

// ---------------------------------------------------------------- one policy's replay

/**
 * The Compactor as an agent runs it, its micro-compaction planned from what is new (clearing.js):
 * planning the whole conversation on every call made the 'every-turn' policy's replay cost a
 * whole plan per turn. The runner tells the plan what the Compactor changed (noteReport).
 */
class ReplayCompactor extends Compactor {
  constructor(options, format) {
    super(options);
    this.sessionFormat = format;
    /** @type {GrowingMicroPlan | null} made at the first plan, with the options the Compactor plans with */
    this.growing = null;
  }

  planMicro(messages, options) {
    if (!this.growing) this.growing = new GrowingMicroPlan(options, this.sessionFormat);
    return this.growing.plan(messages, options);
  }

  /** After compact(): `before` is the list as it was sent to it, `report` what it said it did. */
  noteReport(before, report) {
    const growing = this.growing;
    if (!growing) return;
    if (report.compacted) { growing.forget(); return; }
    // (dropToolCalls, reasoning and thinking {keep} remove parts and messages: planned anew)
    // (left to the provider's edit, thinking {keep} changed nothing here)
    if (report.pruned || (report.thinkingKeep && report.thinkingKeep.by === 'client')) { growing.forget(); return; }
    const edits = report.micro.edits;
    if (!edits.length) return;
    // The edits are applied in place, and signed thinking dropped from the first edited message on,
    // by the two ends of compact() that clear (compactor.js: decide's applyMicro).
    const first = Math.min(...edits.map((e) => e.message));
    growing.changed(report.thinkingRemoved ? before.slice(first) : edits.map((e) => before[e.message]));
    if (report.reason === 'below-threshold' || report.reason === 'nothing-to-summarize') growing.applied(edits);
  }
}

/**
 * A policy's conversation, managed before each call. `format` is the session's (detected on
 * all of it); `build` is the policy's request builder, told of messages changed in place.
 */
function runner(spec, profile, prices, summaries, provider, format, build, window) {
  let ctx = [];
  let compactor = null;
  if (spec.compactor) {
    const summarize = digestSummarizer();
    // The Compactor is told whose cache it works for, as a user of that provider would tell it
    // (a price list of the host's own names a provider the Compactor has no default for).
    compactor = new ReplayCompactor({
      pricing: PRICING_NAMES.includes(provider) ? provider : undefined,
      // (a threshold {fraction} is of the simulated window unless the policy names its own)
      ...(spec.compactor.threshold !== null && typeof spec.compactor.threshold === 'object' ? { contextWindow: window } : {}),
      ...spec.compactor,
      summarize: async (request) => {
        const text = await summarize(request);
        const input = estimateTokens(request.system, { profile }) + estimateTokens(request.prompt, { profile });
        const output = estimateTokens(text, { profile });
        summaries.push({ input, output, usd: (input * prices.input + output * prices.output) / 1e6 });
        return text;
      },
    }, format);
  }
  // Each plan is the one planMicroCompact makes of the whole conversation, planned from what is new (clearing.js).
  const micro = spec.micro ? new GrowingMicroCompaction(spec.micro, format) : null;
  // The server clears what it is sent, anew on every request; the client keeps its copy.
  const ce = spec.contextEditing;
  const serverKeep = compactor && compactor.thinkingKeep !== undefined && compactor.thinking === 'prefix-bound' ? compactor.thinkingKeep : undefined;
  const server = ce ? new GrowingServerClearing({ keepRecent: ce.keep ?? 3, trigger: ce.trigger ?? 100000, clearAtLeast: ce.clearAtLeast ?? 0, profile }, format) : null;
  // The server compacts what it reads (from its last summary on) once it reaches the trigger (server-compaction.js).
  const sc = spec.serverCompaction;
  const compacting = sc ? new ServerCompaction({ trigger: sc.trigger ?? 150000, maxSummaryTokens: sc.maxSummaryTokens, profile, format, prices, summaries }) : null;
  return {
    /** The Compactor's settings as it resolved them (its defaults follow the pricing), or undefined. */
    compactor: compactor ? { threshold: compactor.threshold, ...(compactor.contextWindow ? { contextWindow: compactor.contextWindow } : {}), microTrigger: compactor.microTrigger, clearAtLeast: compactor.clearAtLeast,
      keepRecent: compactor.keepRecent, ...(compactor.keepTailMessages ? { keepTailMessages: compactor.keepTailMessages } : {}) } : undefined,
    /** The request for this turn, after `added` (owned copies) joined the conversation. */
    async request(added) {
      for (const m of added) ctx.push(m);
      if (micro) {
        const plan = micro.plan(ctx);
        if (plan.edits.length) ctx = applyEditsToCopy(ctx, plan.edits);
      }
      if (compactor) {
        const before = ctx.slice();
        const report = await compactor.compact(ctx);
        // The Compactor edits results in place, and drops signed thinking in place from the turns
        // whose prefix changed (it says how many, not which): those messages must be read again.
        for (const e of report.micro.edits) build.forget(before[e.message]);
        if (report.thinkingRemoved || report.pruned) for (const m of before) build.forget(m);
        compactor.noteReport(before, report);
        if (report.micro.edits.length || report.compacted || report.thinkingRemoved || report.pruned) {
          if (micro) micro.forget();
          if (server) server.forget();
          if (compacting) compacting.forget();
        }
      }
      const compacted = compacting ? await compacting.request(ctx) : ctx;
      const sent = server ? server.request(compacted) : compacted;
      // thinking {keep} left to the provider (prefix-bound): it reads the request with its clear_thinking edit
      // applied, and its cache holds from the first thinking it cleared (thinking-keep.js)
      return serverKeep !== undefined ? serverKeptThinking(sent, serverKeep, signedThinking) : sent;
    },
  };
}

/**
 * Replays `session` under each policy and prices every request.
 * Ownership: reads `session` and never changes it (each policy replays its own copies); keeps no
 * reference to it or to `options` once the promise settles. The report is new.
 * @param {unknown[] | {messages: unknown[], system?: unknown, tools?: unknown} | {input: unknown[], instructions?: unknown, tools?: unknown}} session
 * @param {object} [options] see SimulateOptions in index.d.ts
 */
export async function simulate(session, options = {}) {
  if (!options || typeof options !== 'object') throw optionError('simulate: options must be an object');
  optionsObject(options, 'simulate', ['pricing', 'model', 'ttl', 'profile', 'window', 'turnSeconds', 'policies', 'cacheMatch', 'onProgress']);
  const messages = sessionMessages(session);
  if (!messages) throw new MidfoldError('invalid-input', 'simulate: the session must be an array of messages, an object with messages or a Responses body with input');
  checkMessageCount(messages, 'simulate');
  // (JSON.stringify and structuredClone below would overflow the stack on absurd nesting first)
  const listKey = Array.isArray(session) ? [] : [session.messages === messages ? 'messages' : 'input'];
  messages.forEach((m, i) => checkDepth(m, [...listKey, i], 1));
  if (!Array.isArray(session)) for (const key of ['system', 'instructions', 'tools']) checkDepth(session[key], [key], 1);
  const { pricing, modelName, model, ttl } = resolvePricing(options);
  const profile = options.profile === undefined ? pricing.profile : options.profile;
  const window = options.window === undefined ? 200000 : options.window;
  if (!Number.isInteger(window) || window <= 0) throw optionError('window must be a whole number of tokens > 0');
  const gap = options.turnSeconds;
  if (gap !== undefined && !(typeof gap === 'number' && gap >= 0)) throw optionError('turnSeconds must be a number >= 0');
  if (options.policies !== undefined && (!Array.isArray(options.policies) || options.policies.length === 0))
    throw optionError('policies must be a non-empty array of policy names or objects');
  const policies = (options.policies || DEFAULT_POLICIES).map(resolvePolicy);
  // A policy that clears plans with the compaction module, which the browser's initEstimator()
  // does not load: it is fetched here, as the Compactor fetches it (its digest, the full one).
  if (policies.some((p) => p.micro || p.contextEditing || p.compactor || p.serverCompaction)) await ensureTier(COMPACT);
  const match = options.cacheMatch === undefined ? 'breakpoints' : options.cacheMatch;
  if (match !== 'breakpoints' && match !== 'prefix') throw optionError("cacheMatch must be 'breakpoints' or 'prefix'");
  const onProgress = options.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function') throw optionError('onProgress must be a function');
  const prices = basePrices(pricing, model);
  const turns = sessionTurns(messages);
  // (the clearing shortcut reads every prefix in the format of the whole: clearing.js)
  const format = policies.some((p) => p.micro || p.contextEditing || p.compactor || p.serverCompaction || p.recall) ? detectFormat(messages) : undefined;

  // Turn times: the session's timestamps when every turn has one, else a fixed gap
  // (default 0: every turn inside the cache lifetime).
  const stamped = gap === undefined && turns.length > 0 && turns.every((t) => t.time !== undefined);
  const times = turns.map((t, i) => (stamped ? t.time : i * (gap || 0)));

  let head = null;
  // The fixed start of every request: Messages' and Chat's system prompt, Responses' instructions.
  const system = Array.isArray(session) ? undefined : session.messages === messages ? session.system : session.instructions;
  if (!Array.isArray(session) && (system !== undefined || session.tools !== undefined)) {
    const fixed = { system, tools: session.tools };
    head = { key: JSON.stringify(fixed), tokens: (system === undefined ? 0 : estimateTokens(system, { profile }))
      + (session.tools === undefined ? 0 : estimateTokens(session.tools, { profile })), blocks: 1 };
  }

  const results = [];
  for (const [index, spec] of policies.entries()) {
    const summaries = [];
    const memo = new WeakMap();
    const build = requestBuilder(head, memo, profile);
    const run = runner(spec, profile, prices, summaries, pricing.provider, format, build, window);
    const cache = CACHES[pricing.caching](pricing, model, ttl, match);
    const perTurn = [];
    // The policy's own copies of the session's messages, one per message, made when first needed.
    const copies = new Array(messages.length);
    const copy = (i) => copies[i] || (copies[i] = structuredClone(messages[i]));
    const range = (from, to) => { const out = []; for (let i = from; i < to; i++) out.push(copy(i)); return out; };
    let next = 0, cumulative = 0, read = 0, input = 0, peak = 0, sum = 0, over = 0, firstOver = -1;
    const recall = spec.recall ? new RecallModel(spec.recall, format, profile) : null;
    let recallUsd = 0;
    for (let t = 0; t < turns.length; t++) {
      const added = range(next, turns[t].start);
      next = turns[t].start;
      const before = summaries.length;
      const recallTokens = recall ? recall.recallOutputTokens : 0;
      // A re-read of what was cleared is a recall; a page after the first, a request of its own (recall.js).
      const steps = recall ? recall.steps(added) : [added];
      // (it edits the calls and results it makes recalls of in place: priced again)
      if (recall) for (const m of added) build.forget(m);
      let usd = 0, items, tokens, bill;
      for (const step of steps) {
        const request = await run.request(step);
        if (recall) recall.noteRequest(request);
        let sums;
        ({ items, sums } = build(request));
        // The fixed part (tools, system prompt, leading system messages) gets its own breakpoint.
        let fixedEnd = head ? 1 : 0;
        while (fixedEnd < request.length + (head ? 1 : 0) && isSystem(request[fixedEnd - (head ? 1 : 0)])) fixedEnd++;
        bill = cache(items, sums, times[t], fixedEnd);
        tokens = sums.tokens[items.length];
        usd += bill.usd;
        read += bill.read; input += tokens;
        if (tokens > peak) peak = tokens;
      }
      if (recall) {
        const calls = ((recall.recallOutputTokens - recallTokens) * prices.output) / 1e6;
        recallUsd += calls;
        usd += calls;
      }
      let summaryUsd = 0;
      for (let s = before; s < summaries.length; s++) summaryUsd += summaries[s].usd;
      cumulative += usd + summaryUsd;
      sum += tokens;
      if (tokens > window) { over++; if (firstOver < 0) firstOver = t; }
      perTurn.push({ context: tokens, read: bill.read, written: bill.written, usd: usd + summaryUsd, cumulativeUsd: cumulative });
      if (cache.output) {
        // DeepSeek also caches the end of the model's output (these very copies join the
        // conversation next turn, so the unit matches when nothing before them changed).
        const outItems = requestItems(range(turns[t].start, turns[t].end), memo, profile);
        cache.output(items, outItems, tokens + outItems.reduce((a, it) => a + it.tokens, 0), times[t]);
      }
      if (onProgress) onProgress({ policy: spec.name, label: spec.label, policyIndex: index, policies: policies.length, turn: t + 1, turns: turns.length });
    }
    const summaryUsd = summaries.reduce((a, s) => a + s.usd, 0);
    const inputUsd = cumulative - summaryUsd - recallUsd;
    results.push({
      name: spec.name,
      label: spec.label,
      inputUsd,
      summaryUsd,
      totalUsd: cumulative,
      billedTokens: Math.round((cumulative * 1e6) / prices.input),
      inputTokens: input,
      cachedShare: input ? read / input : 0,
      peakContext: peak,
      meanContext: turns.length ? Math.round(sum / turns.length) : 0,
      summaries: summaries.length,
      summaryInputTokens: summaries.reduce((a, s) => a + s.input, 0),
      summaryOutputTokens: summaries.reduce((a, s) => a + s.output, 0),
      turnsOverWindow: over,
      firstTurnOverWindow: firstOver,
      ...(run.compactor ? { compactor: run.compactor } : {}),
      ...(recall ? { recall: { ...recall.report(), outputUsd: recallUsd } } : {}),
      perTurn,
    });
  }
  return {
    provider: pricing.provider, model: modelName, ttl, profile, cacheMatch: pricing.caching === 'breakpoints' ? match : undefined, window, turns: turns.length,
    prices: { ...model }, sources: pricing.sources, results,
  };
}
