/**
 * ai-sdk.js — midfold inside the Vercel AI SDK (the `midfold/ai-sdk` entry). The AI SDK
 * hands over the whole original history on every step (prepareStep) and on every model call
 * (middleware), so each helper compacts through compactHistory with a SessionState: a
 * history that starts with an already-folded prefix gets the same compacted prefix back,
 * and only its new messages are read (docs/state.md).
 *
 * `ai` is a peer: nothing here imports it. Models are used through their own interface
 * (LanguageModelV3 in ai 6, LanguageModelV4 in ai 7), so one entry serves both majors.
 */
import { MidfoldError } from '../core/errors.js';
import { checkMessageCount, optionsObject } from '../core/options.js';
import { Compactor, PRICING_NAMES } from '../compaction/compactor.js';
import { SessionState, compactHistory, canonicalJSON } from '../state/index.js';
import { hex, sha256 } from '../state/hash.js';
import { integrationStates } from '../state/conversation-states.js';
import { pricingOfURL } from '../pricing/hosts.js';
import { COMPACT_MIN_TRIGGER, bedrockCompacts, contextEdits, editsApplied, fromLastCompaction, holdsCompaction, keepsThinkingOnServer, thinkingEdits } from '../compaction/server-context.js';
import { signedMessages } from '../core/signed-parts.js';
import { signedThinking } from '../core/api.js';
import { fractionWindows } from './model-window.js';
import { recallSetup } from '../recall/options.js';
import { withRecall } from './ai-sdk-recall.js';

/** How many recent prompts' counts a hook (midfoldMiddleware, compactStep) keeps for the calls that follow them. */
const RECENT_ANSWERS = 16;

/**
 * `{inputTokens}` from an AI SDK usage record: a step's LanguageModelUsage (inputTokens, a
 * number, cached tokens included) or a model call's V3/V4 usage (inputTokens.total); undefined
 * when the provider reported none.
 */
function inputUsage(usage) {
  const n = usage && (typeof usage.inputTokens === 'number' ? usage.inputTokens
    : usage.inputTokens && typeof usage.inputTokens.total === 'number' ? usage.inputTokens.total : undefined);
  return Number.isInteger(n) && n >= 0 ? { inputTokens: n } : undefined;
}

/**
 * The URL a first-party provider model sends its requests to, or undefined when it does not
 * say. Not part of the LanguageModel specification: @ai-sdk/anthropic keeps its base URL in
 * `config.baseURL`, @ai-sdk/openai builds each URL with `config.url()` (both read in their
 * dist code, ai 6 and 7 majors; tests/integrations/ai-sdk-deepseek.test.mjs fails if that changes).
 * DeepSeek serves the Anthropic Messages API too (api.deepseek.com/anthropic, where it maps
 * Claude model names onto its own models), so the provider id alone can name the wrong bill.
 */
function endpointOf(model, provider) {
  const config = model.config;
  if (!config || typeof config !== 'object') return undefined;
  try {
    return provider.startsWith('anthropic.') ? config.baseURL
      : provider.startsWith('openai.') && typeof config.url === 'function' ? config.url({ path: '/chat/completions', modelId: model.modelId })
        : undefined;
  } catch {
    return undefined; // a url() that wants other arguments: the provider id decides
  }
}

/**
 * The Compactor `pricing` an AI SDK model names: the provider's own API host it sends to
 * (api.deepseek.com is 'deepseek' whichever SDK speaks to it), else its provider id
 * ('deepseek.chat' is 'deepseek', 'anthropic.messages' 'anthropic'), or for a gateway model
 * (or an id string, which ai resolves through the gateway) the creator part of
 * 'deepseek/deepseek-v4-flash'. Undefined for any other provider, whose cache prices midfold
 * has no table for.
 */
function pricingOf(model) {
  const provider = model && typeof model === 'object' && typeof model.provider === 'string' ? model.provider : '';
  const byHost = provider ? pricingOfURL(endpointOf(model, provider)) : undefined;
  if (byHost) return byHost;
  const id = typeof model === 'string' ? model : provider === 'gateway' && typeof model.modelId === 'string' ? model.modelId : '';
  const family = id ? id.split('/')[0] : provider.split('.')[0];
  return PRICING_NAMES.includes(family) ? family : undefined;
}

/**
 * Splits the integration's options into the Compactor's and the carried state. Unless the
 * host sets `pricing` or `threshold`, the model's provider chooses the default threshold
 * (DeepSeek's cheap cached reads make a later compaction cheaper): one Compactor per
 * provider family seen, built on its first call. With `threshold: {fraction}` and no
 * `contextWindow`, the window of the model each call goes to (from its id) sets it: one
 * Compactor per window and provider family.
 */
function setUp(options, format, fnName) {
  if (!options || typeof options !== 'object') throw new MidfoldError('invalid-option', `${fnName}: options with a summarize function are required`);
  const { state, onReport, specificationVersion, maxConversations, signal, recall: recallOption, ...rest } = options;
  // With recall, one archive for every Compactor this integration builds (one per provider family or window).
  const recall = recallSetup(recallOption, fnName, { shared: true });
  const compactorOptions = recall ? { ...rest, recall: { archive: recall.archive } } : rest;
  if (signal !== undefined && !isSignal(signal)) throw new MidfoldError('invalid-option', `${fnName}: signal must be an AbortSignal`);
  // Without a state from the host, each conversation gets one of its own (found by content), in the
  // module's map: an instance built inside each call continues as one built once.
  const states = integrationStates(state, maxConversations, fnName, options);
  if (onReport !== undefined && typeof onReport !== 'function') throw new MidfoldError('invalid-option', `${fnName}: onReport must be a function`);
  // threshold {fraction} without contextWindow: the model's window, from its id, sets the threshold.
  const windows = fractionWindows(compactorOptions);
  // Built now, so a bad option fails here and not on the first call.
  const compactor = new Compactor({ format, ...(windows ? windows.check : compactorOptions) });
  const byModel = compactorOptions.pricing === undefined && (compactorOptions.threshold === undefined || windows !== null);
  // A model's pricing (or window) chooses the plan's threshold: its conversations keep states of their own.
  const variantOf = (model) => (windows ? `${windows.variant(model)}:${pricingOf(model) ?? ''}` : byModel ? pricingOf(model) ?? '' : '');
  const compactors = windows ? new Map() : new Map([['', compactor]]);
  const compactorFor = (model) => {
    const key = variantOf(model);
    if (!compactors.has(key)) {
      compactors.set(key, new Compactor({ format, ...(windows ? windows.optionsFor(model) : compactorOptions), pricing: byModel ? pricingOf(model) : compactorOptions.pricing }));
    }
    return compactors.get(key);
  };
  const stateOf = (messages, model) => (states ? states.of(messages, variantOf(model)) : state);
  // The provider's counts for recent prompts go with the states (a per-call instance needs the
  // last call's to price its first step as one built once would), or with this instance.
  const own = recentCounts();
  const countsOf = (model) => (states ? states.memo('counts', recentCounts, variantOf(model)) : own);
  return { compactorFor, stateOf, countsOf, onReport, specificationVersion, signal, recall };
}

/**
 * The context management `model`'s provider takes for `compactor`: `{key, edits, extra}` (the provider
 * options key it is read under, the edits for the report's `serverEdits`, and the provider options that ask
 * for them), or null where it takes none; with `thinkingOnly` (thinking {keep} alone), the
 * clear_thinking edit, asked of Anthropic's own API only. @ai-sdk/anthropic 3.x and 4.x pass
 * `providerOptions.anthropic.contextManagement` through as the request's `context_management`, with its
 * beta headers (their dist code; the contextManagement schema in their index.d.ts). So does the Bedrock
 * provider's InvokeModel model (`@ai-sdk/amazon-bedrock/anthropic`, provider 'bedrock.anthropic.messages':
 * it is @ai-sdk/anthropic's model, the betas moved into the body's `anthropic_beta`), where Bedrock
 * compacts only for the models it lists (bedrockCompacts) and clears tool results for the others. Not
 * the Bedrock Converse model ('amazon-bedrock', 'amazonBedrock': Converse supports no compaction, and
 * Bedrock documents tool clearing for InvokeModel only); not DeepSeek's Anthropic-compatible endpoint,
 * for which midfold has no source that it takes them; not OpenRouter. @ai-sdk/openai 4's Responses model
 * (provider 'openai.responses', specification v4) takes `providerOptions.openai.contextManagement`,
 * `[{type: 'compaction', compactThreshold}]`, as the request's `context_management` (its index.d.ts and
 * dist code); 3.x has no such option (its schema would drop it silently), nor have the Chat models.
 */
function serverOptionsFor(model, compactor, thinkingOnly = false) {
  const provider = model && typeof model === 'object' && typeof model.provider === 'string' ? model.provider : '';
  if (thinkingOnly) {
    // thinking {keep} alone: clear_thinking_20251015, which midfold asks of Anthropic's own API only
    if (!provider.startsWith('anthropic.') || pricingOf(model) === 'deepseek') return null;
    const contextManagement = thinkingEdits(compactor);
    return { key: 'anthropic', edits: contextManagement.edits, extra: { anthropic: { contextManagement } } };
  }
  if (provider === 'openai.responses' && model.specificationVersion === 'v4') {
    const contextManagement = [{ type: 'compaction', compactThreshold: compactor.threshold }];
    return { key: 'openai', edits: contextManagement, extra: { openai: { contextManagement } } };
  }
  if (provider === 'bedrock.anthropic.messages') {
    const contextManagement = contextEdits(compactor, { compaction: bedrockCompacts(model.modelId) });
    return { key: 'anthropic', edits: contextManagement.edits, extra: { anthropic: { contextManagement } } };
  }
  if (provider.startsWith('anthropic.') && pricingOf(model) !== 'deepseek') {
    const contextManagement = contextEdits(compactor);
    return { key: 'anthropic', edits: contextManagement.edits, extra: { anthropic: { contextManagement } } };
  }
  return null;
}

/** `base` with `extra`'s provider entries merged in, one level deep (a new object; neither changes). */
function withProviderOptions(base, extra) {
  const out = { ...(base || {}) };
  for (const [key, value] of Object.entries(extra)) out[key] = { ...(out[key] || {}), ...value };
  return out;
}

/**
 * While a signed tool loop in flight keeps midfold from editing (report reason 'deferred-thinking'),
 * the provider options that ask the provider to manage the context itself (`providerOptions` with
 * them merged in), or `providerOptions` as they were: where the host set its own contextManagement,
 * or the provider has none. Says which in `report.serverContext` ('requested', 'host',
 * 'unsupported'); where the provider has none and the loop is past the threshold, warns once per
 * conversation (`warned`: the states warned of) that the requests will grow until the turn ends.
 */
function askServer(model, compactor, report, providerOptions, warned, state, messages) {
  // A conversation led by the block a threshold compaction wrote goes on with compaction on: the block
  // needs its beta header, which the SDKs add for their own edits only.
  const compacting = compactor.threshold >= COMPACT_MIN_TRIGGER && holdsCompaction(messages);
  // thinking {keep: N} under prefix binding is the provider's clear_thinking edit, on every request
  // that carries signed thinking (js/core/thinking-keep.js)
  const keepThinking = keepsThinkingOnServer(compactor) && Array.isArray(messages) && signedMessages(messages, signedThinking).size > 0;
  if (report.reason !== 'deferred-thinking' && !compacting && !keepThinking) return providerOptions;
  const thinkingOnly = report.reason !== 'deferred-thinking' && !compacting;
  const server = serverOptionsFor(model, compactor, thinkingOnly);
  const key = server ? server.key : 'anthropic';
  if (providerOptions && providerOptions[key] && providerOptions[key].contextManagement) {
    report.serverContext = 'host';
    return providerOptions;
  }
  if (!server) {
    if (thinkingOnly) {
      // thinking {keep} under prefix binding needs the provider's edit, which this provider cannot be asked for
      report.serverContext = 'unsupported';
      // (once per Compactor, that is per model: the provider is the host's choice, not the conversation's)
      if (!warned.has(compactor)) {
        warned.add(compactor);
        const provider = model && typeof model === 'object' && model.provider ? model.provider : 'this provider';
        compactor.warn(`midfold: thinking {keep: ${compactor.thinkingKeep}} needs the provider to clear thinking on its side (clear_thinking_20251015) and ${provider} `
          + "cannot be asked for it; under prefix binding the client cannot drop it, so every turn's signed thinking stays (binding: 'unbound' drops it on the client where the provider allows)");
      }
      return providerOptions;
    }
    if (report.reason !== 'deferred-thinking') return providerOptions;
    report.serverContext = 'unsupported';
    const once = state || warned;
    if (report.tokensBefore > compactor.threshold && !warned.has(once)) {
      warned.add(once);
      const provider = model && typeof model === 'object' && model.provider ? model.provider : 'this provider';
      compactor.warn(`midfold: a tool loop with signed thinking is in flight at ${report.tokensBefore} tokens, over the threshold of ${compactor.threshold}; `
        + `nothing can be folded until the turn ends and ${provider} has no server-side context management, so each request of the loop grows with it`);
    }
    return providerOptions;
  }
  report.serverContext = 'requested';
  report.serverEdits = server.edits;
  return withProviderOptions(providerOptions, server.extra);
}

/** The context management a model call's provider metadata reports (@ai-sdk/anthropic: anthropic.contextManagement). */
const reportedEdits = (metadata) => (metadata && metadata.anthropic ? metadata.anthropic.contextManagement : undefined);

const isSignal = (v) => v !== null && typeof v === 'object' && typeof v.aborted === 'boolean' && typeof v.addEventListener === 'function';

/** The one signal that aborts when either does (`given` by the host, `own` by the SDK's call), or undefined. */
function eitherSignal(given, own) {
  if (!given || !isSignal(own) || own === given) return given || (isSignal(own) ? own : undefined);
  return typeof AbortSignal.any === 'function' ? AbortSignal.any([given, own]) : given;
}

/** A step's `response.messages`, or null. */
function responseMessages(step) {
  return step && step.response && Array.isArray(step.response.messages) ? step.response.messages : null;
}

/** True when two response messages are the same message (ai 6 hands out deep copies; bytes,
 * an image a model wrote, are compared as base64, not as an object of one key per byte). */
function sameMessage(a, b) {
  try { return canonicalJSON(a) === canonicalJSON(b); } catch { return false; }
}

/**
 * How many messages at the end of a step's history the previous step wrote (its assistant
 * message and tool results). ai 7 gives each step its own `response.messages`; ai 6 gives each
 * step every response message so far (a deep copy), so there the previous step wrote what its
 * list adds to the one before it. Counting ai 6's whole list made the provider's count cover the
 * first message alone, and every later message was estimated again on top of it: the estimate
 * doubled and a loop folded at about half its threshold.
 */
function answeredByLastStep(steps) {
  const last = Array.isArray(steps) ? responseMessages(steps[steps.length - 1]) : null;
  if (!last) return 0;
  const before = responseMessages(steps[steps.length - 2]);
  const cumulative = before !== null && before.length > 0 && last.length > before.length && sameMessage(last[0], before[0]);
  return cumulative ? last.length - before.length : last.length;
}

/**
 * The messages a compactStep returned to the SDK, by their last message: ai 7 carries a
 * `messages` override forward ("The override carries forward to later steps", its
 * PrepareStepResult), so a later step's `messages` are that list plus what the steps since
 * wrote; ai 6 sends it for one step and gives the next its own history again. Each record
 * names the original history the list stood for.
 * @typedef {{sent: unknown[], history: unknown[]}} Override
 */

/**
 * The original history of a step whose `messages` may start with a list this hook returned
 * (ai 7): `{history, carried}`, where `carried` is the override they start with, or null (the
 * messages are the history, as ai 6 gives them). Looks at most at the messages the steps so
 * far wrote (the override ends before them), comparing objects by identity: ai 7 keeps the
 * returned message objects.
 * @param {WeakMap<object, Override>} overrides
 * @param {unknown[]} messages
 * @param {unknown[]} [steps]
 */
function originalsOf(overrides, messages, steps) {
  const written = Array.isArray(steps) ? steps.reduce((n, s) => n + (responseMessages(s)?.length ?? 0), 0) : 0;
  for (let i = messages.length - 1; i >= 0 && i >= messages.length - 1 - written; i--) {
    const m = messages[i];
    const record = m !== null && typeof m === 'object' ? overrides.get(m) : undefined;
    if (record === undefined || record.sent.length !== i + 1) continue;
    let same = true;
    for (let j = 0; j < i && same; j++) same = messages[j] === record.sent[j];
    if (same) return { history: [...record.history, ...messages.slice(i + 1)], carried: record };
  }
  return { history: messages, carried: null };
}

/**
 * `counted` ({inputTokens}) as a usage anchor for the first `count` messages of `prompt` that
 * names the last of them (its canonical JSON), or undefined when there is no such message or
 * it cannot be serialized.
 */
function namedCount(prompt, count, counted) {
  if (!counted || !Array.isArray(prompt) || !(count > 0 && count <= prompt.length)) return undefined;
  try { return { ...counted, count, last: canonicalJSON(prompt[count - 1]) }; } catch { return undefined; }
}

/**
 * The provider's counts for recent prompts, the most recent first (at most RECENT_ANSWERS).
 * One hook usually serves every conversation of a server, so each count names the last message
 * of the prompt it was for (its canonical JSON), and compactHistory uses one only where that
 * message ends the same prefix; a count may also carry the context it was counted under
 * (promptContext), and is then offered only to prompts under the same one.
 */
function recentCounts() {
  const answers = [];
  return {
    /**
     * Remembers `counted` ({inputTokens}, or undefined: nothing) for the first `count` messages
     * of `prompt`, counted under `context` (a string, or undefined for none).
     */
    remember(prompt, count, counted, context) {
      const named = namedCount(prompt, count, counted);
      if (!named) return;
      answers.unshift({ named, context });
      if (answers.length > RECENT_ANSWERS) answers.length = RECENT_ANSWERS;
    },
    /** The counts remembered under `context`, as a new list, or undefined when there are none. */
    list(context) {
      const found = answers.filter((a) => a.context === context).map((a) => a.named);
      return found.length ? found : undefined;
    },
  };
}

/**
 * What a provider-level prompt's count depends on besides its messages: the system prompt (its
 * leading system messages), the tools and the tool choice, as a SHA-256 (hex). A count names
 * the last message it was for, and two agents served by one wrapped model may open with the
 * same user message under other instructions and tools: their counts differ by all of those.
 * Undefined when they cannot be serialized (no count is kept or used then).
 * @param {{prompt: unknown[], tools?: unknown, toolChoice?: unknown}} params
 */
function promptContext(params) {
  const { prompt } = params;
  let system = 0;
  while (system < prompt.length && prompt[system] && prompt[system].role === 'system') system++;
  return textContext({ system: prompt.slice(0, system), tools: params.tools ?? null, toolChoice: params.toolChoice ?? null });
}

/** The SHA-256 (hex) of `value`'s canonical JSON, or undefined when it has none (a cycle, a BigInt). */
async function textContext(value) {
  try {
    return hex(await sha256(canonicalJSON(value)));
  } catch {
    return undefined;
  }
}

/**
 * Usage anchors (one, a list, or undefined) for the positions of `history` moved to those of `read`,
 * `fromLastCompaction(history)`: a count is of the first `count` messages, and the cut dropped the ones
 * between the leading system messages and the compaction block. An anchor that ends before the block's
 * message, or at it (the cut message is a new one), counted what the provider no longer reads: it is left
 * out. `carried` (the step's messages are an override, not `history`): positions are of another list, none
 * is kept. Undefined when none is left.
 */
function cutAnchors(usage, history, read, carried) {
  if (usage === undefined || carried) return undefined;
  const removed = history.length - read.length;
  let head = 0;
  while (head < read.length && read[head] && read[head].role === 'system') head++;
  const kept = (Array.isArray(usage) ? usage : [usage])
    .map((u) => ({ ...u, count: u.count === undefined ? history.length - removed : u.count - removed }))
    .filter((u) => u.count > head + 1);
  return kept.length ? kept : undefined;
}

function report(onReport, value) {
  if (!onReport) return;
  try { onReport(value); } catch { /* a failing hook must not fail the step */ }
}

/**
 * A `prepareStep` function for `generateText`, `streamText` and `ToolLoopAgent` (ai 6 and
 * 7): it compacts the step's messages (ModelMessage[]) with the carried state and returns
 * them as the step's `messages`; when nothing changed it returns `{}` (the SDK's own
 * messages are sent; under ai 7, once this call returned a list, it returns one at every
 * later step). The previous step's `usage.inputTokens` (the provider's count, cached
 * tokens included) anchors the estimate, so the threshold is compared with the provider's
 * count; a call's first step is anchored on an earlier step's count where its prompt still
 * begins the history, or on the count the state's record carries. Options are the
 * Compactor's, plus `state` (a SessionState; default: one in memory per conversation, in the
 * module's conversationStates: found by these options and the conversation's content, so an
 * instance built inside each call continues as one built once; `maxConversations` (256) per
 * options), `onReport(report)` and `signal`: the call's AbortSignal, which aborts a summary
 * being written (neither ai 6 nor ai 7 hands prepareStep the call's `abortSignal`, so build
 * compactStep inside the call with it: `compactStep({…, signal: abortSignal})`; a signal the
 * SDK may pass as `step.abortSignal` counts too).
 *
 * Ownership: the returned function keeps the Compactor it builds and the state; it never
 * changes the SDK's messages (it returns new arrays).
 * @param {object} options
 * @returns {(step: {messages: unknown[], abortSignal?: AbortSignal}) => Promise<{messages?: unknown[]}>}
 */
export function compactStep(options) {
  const { compactorFor, stateOf, countsOf, onReport, signal, recall } = setUp(options, 'ai-sdk', 'compactStep');
  /** @type {WeakMap<object, Override>} */
  const overrides = new WeakMap();
  const warned = new WeakSet();
  return withRecall(async function prepareStep(step) {
    if (!step || !Array.isArray(step.messages)) throw new MidfoldError('invalid-input', 'compactStep: prepareStep was called without messages');
    checkMessageCount(step.messages, 'compactStep');
    // The state is keyed by the original history, which the next generateText call sends.
    const { history, carried } = originalsOf(overrides, step.messages, step.steps);
    const state = await stateOf(history, step.model);
    const counts = await countsOf(step.model);
    // The previous step's usage is the provider's count for the messages that step was sent.
    const last = Array.isArray(step.steps) && step.steps.length ? step.steps[step.steps.length - 1] : undefined;
    // (a count of what the provider read after its own edits is not the count of what was sent: it anchors nothing)
    const counted = last && editsApplied(reportedEdits(last.providerMetadata)) ? undefined : inputUsage(last && last.usage);
    // The previous step was sent these messages less what it answered (when it changed nothing).
    const count = step.messages.length - answeredByLastStep(step.steps);
    // ai 7 shows the step's system prompt (`instructions`), ai 6 does not: an earlier call's
    // count is offered only under the same one where it is shown (no tools are shown to either).
    const context = step.instructions === undefined ? undefined : await textContext({ instructions: step.instructions });
    let usage;
    if (counted && carried) {
      // Sent as ai 7 carried them: the count is for the form the state remembers, which ends
      // with the message it names.
      usage = namedCount(step.messages, count, counted);
    } else if (counted) {
      usage = { ...counted, count };
      // The first step of a generateText call has no previous step: the counts of earlier calls'
      // steps anchor it where one of their prompts is still the history's beginning (a fold
      // since then carries its own count, in the state).
      counts.remember(step.messages, count, counted, context);
    }
    const compactor = compactorFor(step.model);
    // The provider reads from its last compaction block on: the step is counted, folded and sent from there.
    const read = fromLastCompaction(history);
    const anchors = usage ?? counts.list(context);
    const { messages: compacted, report: r } = await compactHistory(compactor, read,
      { state, signal: eitherSignal(signal, step.abortSignal), usage: read === history ? anchors : cutAnchors(anchors, history, read, !!carried), context });
    const messages = fromLastCompaction(compacted);
    // (prepareStep's providerOptions are merged into the call's by both majors, which prepareStep does not
    // see: only midfold's part is returned, and its contextManagement replaces one the call has)
    const providerOptions = askServer(step.model, compactor, r, undefined, warned, state, messages);
    report(onReport, r);
    const extra = providerOptions ? { providerOptions } : {};
    // (a carried override is replaced even by the history itself: what is sent is what was decided)
    if (!(r.session && r.session.changed) && !carried && read === history && messages === compacted) return extra;
    if (messages.length) overrides.set(messages[messages.length - 1], { sent: messages, history });
    return { messages, ...extra };
  }, recall);
}

/**
 * A language-model middleware for `wrapLanguageModel` whose `transformParams` compacts
 * `params.prompt` (the provider-level prompt: LanguageModelV3Prompt in ai 6, V4 in ai 7)
 * with the carried state. The summary and acknowledgement are written as arrays of text
 * parts, as those prompts require. Options are the Compactor's, plus `state`, `onReport`,
 * `signal` (beside each call's own `params.abortSignal`, which already aborts a summary) and
 * `specificationVersion` ('v3', the default, for ai 6; 'v4' for ai 7's types — ai 7
 * accepts either at run time).
 *
 * The provider's input count in each answer (`usage.inputTokens`, cached tokens included)
 * anchors the estimate of the next call that continues that prompt, so the threshold is
 * compared with the provider's count; one wrapped model may serve many conversations (a
 * count is used only where the last message it was for ends the same prefix, under the same
 * system prompt, tools and tool choice: promptContext).
 *
 * Ownership: keeps the Compactor and the state; never changes `params` (returns a copy
 * with a new `prompt`).
 * @param {object} options
 */
export function midfoldMiddleware(options) {
  const { compactorFor, stateOf, countsOf, onReport, specificationVersion = 'v3', signal, recall } = setUp(options, 'ai-sdk', 'midfoldMiddleware');
  if (specificationVersion !== 'v3' && specificationVersion !== 'v4')
    throw new MidfoldError('invalid-option', "midfoldMiddleware: specificationVersion must be 'v3' or 'v4'");
  // The provider's counts for the prompts of recent answers (countsOf): the call after an answer
  // may belong to another conversation than that answer's.
  // transformParams' result is the params the SDK hands wrapGenerate and wrapStream (ai 6 and
  // 7, wrapLanguageModel): its context is hashed once, and again only for params it never saw.
  const contexts = new WeakMap();
  const warned = new WeakSet();
  /** The context under which `params` is counted, or undefined (no count then). */
  const contextOf = (params) => (params && Array.isArray(params.prompt)
    ? (contexts.has(params) ? contexts.get(params) : promptContext(params)) : undefined);
  // (a count of what the provider read after its own edits is not the prompt's: it is not kept)
  const remember = async (params, model, counted, context, metadata) => {
    if (context !== undefined && !editsApplied(reportedEdits(metadata))) (await countsOf(model)).remember(params.prompt, params.prompt.length, counted, context);
  };
  const watch = (stream, params, model, context) => stream.pipeThrough(new TransformStream({
    async transform(part, controller) {
      if (part && part.type === 'finish') await remember(params, model, inputUsage(part.usage), context, part.providerMetadata);
      controller.enqueue(part);
    },
  }));
  return withRecall({
    specificationVersion,
    async transformParams({ params, model }) {
      if (!params || !Array.isArray(params.prompt)) return params;
      checkMessageCount(params.prompt, 'midfoldMiddleware');
      const context = await contextOf(params);
      const state = await stateOf(params.prompt, model);
      const usage = context === undefined ? undefined : (await countsOf(model)).list(context);
      const compactor = compactorFor(model);
      // The provider reads from its last compaction block on: the call is counted, folded and sent from there
      // (the counts kept are of prompts sent so, each naming its last message).
      const read = fromLastCompaction(params.prompt);
      const { messages: compacted, report: r } = await compactHistory(compactor, read,
        { state, signal: eitherSignal(signal, params.abortSignal), usage, context });
      const messages = fromLastCompaction(compacted);
      const providerOptions = askServer(model, compactor, r, params.providerOptions, warned, state, messages);
      report(onReport, r);
      const changed = (r.session && r.session.changed) || read !== params.prompt || messages !== compacted;
      let out = changed ? { ...params, prompt: messages } : params;
      if (providerOptions !== params.providerOptions) out = { ...out, providerOptions };
      contexts.set(out, context); // (compaction keeps the leading system messages, tools untouched)
      return out;
    },
    async wrapGenerate({ doGenerate, params, model }) {
      const result = await doGenerate();
      await remember(params, model, inputUsage(result && result.usage), await contextOf(params), result && result.providerMetadata);
      return result;
    },
    async wrapStream({ doStream, params, model }) {
      const result = await doStream();
      return result && result.stream ? { ...result, stream: watch(result.stream, params, model, await contextOf(params)) } : result;
    },
  }, recall);
}

/**
 * Compacts a chat UI's state (`UIMessage[]`, what `useChat` sends a route) with the carried
 * state: resolves to `{messages, report, summaryPart?}`, where `messages` is a new UIMessage[]
 * in which the folded middle is one UIMessage (an `id`, a text part, `metadata.midfold.summary:
 * true`), and unfinished parts (streaming, awaiting approval) are untouched. Pass `messages` to
 * `convertToModelMessages` and, as `originalMessages`, to the UI message stream.
 *
 * The client never sees `messages`: the stream carries only the new assistant message. So when
 * this call folded, `summaryPart` is a data part for the stream, `{type: 'data-midfold-summary',
 * id, data: {text, replaces, tokensBefore, tokensAfter}}` (`replaces`: the ids of the client's
 * UIMessages the summary stands for): written with the UI message stream's writer before the
 * answer, the AI SDK's chat client keeps it in the new assistant message's parts (and persists
 * it with them), so a chat UI can show "earlier messages summarized" there; the model never
 * reads it (`convertToModelMessages` leaves data parts out). A later call that continues the
 * fold has none: the part was sent with the turn that folded.
 *
 * `options.compactor` is a Compactor (or its options, to build one per call) and
 * `options.state` the conversation's SessionState (keep one per chat id, or give it a store
 * and a key).
 * Ownership: never changes `messages` or its objects (untouched messages come back as copies
 * sharing their nested values); the state keeps what it remembers, as JSON, not the objects.
 * @param {unknown[]} messages
 * @param {{compactor: Compactor | object, state?: SessionState, force?: boolean, signal?: AbortSignal}} options
 */
export async function compactUIMessages(messages, options) {
  if (!options || typeof options !== 'object') throw new MidfoldError('invalid-option', 'compactUIMessages: options with a compactor are required');
  optionsObject(options, 'compactUIMessages', ['compactor', 'state', 'force', 'signal']);
  const compactor = options.compactor instanceof Compactor ? options.compactor
    : new Compactor({ format: 'ai-sdk-ui', ...(options.compactor || {}) });
  if (options.state !== undefined && !(options.state instanceof SessionState))
    throw new MidfoldError('invalid-option', 'compactUIMessages: state must be a SessionState');
  const result = await compactHistory(compactor, messages, { state: options.state, force: options.force, signal: options.signal });
  const summaryPart = result.report.compacted ? summaryDataPart(messages, result.messages, result.report) : undefined;
  return summaryPart ? { ...result, summaryPart } : result;
}

/**
 * The data part that tells a chat client of a fold: the summary UIMessage's id and text, the
 * ids of the client's messages it stands for (those of `before` that `after` no longer holds),
 * and the estimate before and after. Undefined when `after` holds no summary UIMessage.
 */
function summaryDataPart(before, after, report) {
  const summary = after.find((m) => m && m.metadata && m.metadata.midfold && m.metadata.midfold.summary === true);
  if (!summary) return undefined;
  const kept = new Set(after.map((m) => m && m.id));
  const replaces = before.filter((m) => m && typeof m.id === 'string' && !kept.has(m.id)).map((m) => m.id);
  return { type: 'data-midfold-summary', id: summary.id,
    data: { text: report.summary, replaces, tokensBefore: report.tokensBefore, tokensAfter: report.tokensAfter } };
}

/** The text of a model's generate result (V3 and V4: `content` parts of type text). */
function resultText(result) {
  const content = result && Array.isArray(result.content) ? result.content : [];
  return content.filter((p) => p && p.type === 'text' && typeof p.text === 'string').map((p) => p.text).join('');
}

/**
 * A Compactor `summarize` that writes the summary with an AI SDK language model the host
 * already has (a LanguageModelV3 or V4 object, e.g. `anthropic('claude-haiku-4-5')`): it
 * calls the model's `doGenerate` with the summarizer's system prompt and transcript, so it
 * needs neither `ai` nor a network client of its own. Resolves to the trimmed text; an empty
 * answer rejects (the Compactor then leaves the conversation as it was).
 *
 * Ownership: keeps a reference to `model`.
 * @param {{doGenerate: Function, specificationVersion?: string}} model
 * @param {{temperature?: number, providerOptions?: object}} [options]
 */
export function languageModelSummarizer(model, options = {}) {
  if (!model || typeof model !== 'object' || typeof model.doGenerate !== 'function')
    throw new MidfoldError('invalid-option', 'languageModelSummarizer: expected an AI SDK language model object (LanguageModelV3 or V4), not a model id');
  return async function summarize(request) {
    const prompt = [];
    if (request.system) prompt.push({ role: 'system', content: request.system });
    prompt.push({ role: 'user', content: [{ type: 'text', text: request.prompt }] });
    const call = { prompt, maxOutputTokens: request.maxTokens, abortSignal: request.signal };
    if (options.temperature !== undefined) call.temperature = options.temperature;
    if (options.providerOptions !== undefined) call.providerOptions = options.providerOptions;
    const text = resultText(await model.doGenerate(call)).trim();
    if (!text) throw new MidfoldError('empty-summary', 'languageModelSummarizer: the model returned no text');
    return text;
  };
}

export { recallTool } from './ai-sdk-recall.js';
export { SessionState } from '../state/index.js';
export { conversationStates } from '../state/conversation-states.js';
