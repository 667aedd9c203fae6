// A mock provider that enforces what the providers' documentation says they reject: a real HTTP server on
// 127.0.0.1 (ephemeral port) speaking the Anthropic Messages API (POST /v1/messages) and the OpenAI Responses
// API (POST /v1/responses, POST /v1/responses/compact). Requests reach it through the real SDK clients or
// midfold's fetch adapters; it answers 400 with the provider's error shape where the real API would.
//
// The rules it enforces, with their sources, are listed in docs/provider-rules.md. In short:
// - Anthropic: consecutive user or assistant messages are combined into one turn before anything is checked, as
//   the API does ("Consecutive user or assistant turns in your request will be combined into a single turn", the
//   SDK's `messages` doc), so a request is refused where the combined turn breaks a rule (a tool_result after
//   text, thinking after a tool_use in a loop in flight), and the refusal names the messages combined; every
//   client tool_use has its tool_result first in the next user message, and every
//   tool_result answers a tool_use of the message before; server_tool_use / mcp_tool_use get their result in
//   the same assistant message; thinking and redacted_thinking blocks come back unmodified (their signature
//   is an HMAC over the text); with `prefixBinding` (the newer models' default) a thinking block whose
//   conversation before it changed is rejected (or dropped when thinking.block_binding asks for it); with
//   thinking on, an assistant message whose tool loop is in flight starts with a thinking block (after the
//   compaction block that may lead it, as a response of threshold compaction holds them); at most one
//   `compaction` block with content, and only as the first block of the conversation, with its signature
//   intact; a compaction request (`compaction: {type: 'summarize'}`) needs the beta header, a finished last
//   turn and something to summarize, and answers one signed compaction block with stop_reason "compaction".
//   Server-side context management (`context_management.edits`, tests/helpers/context-management.mjs): checked
//   (beta headers, edit types, compaction's minimum trigger), then applied to what the model reads after every
//   signature was checked against what was sent: old tool results cleared, or the conversation compacted into an
//   unsigned `compaction` block that leads the answer; with compaction on, the API drops what precedes the last
//   block. Each record says what the model read (`read`: tokens) and which edits applied.
// - OpenAI Responses: every *_call_output answers an earlier call with the same call_id, and every call has
//   its output; a reasoning item is followed by the item it was produced with (not by a user message, not at
//   the end); encrypted reasoning and compaction items come back unmodified; no configuration_update item
//   directly follows another, and an async call may wait for its output. /responses/compact answers the
//   input's user messages (as output messages, with ids) followed by one compaction item of a real one's size;
//   this server stores no responses, so a `previous_response_id` is refused as an unknown id. A tool output
//   answers its call once ("Duplicate function_call_output for call_id …", the API's 400 as relayed in
//   NousResearch/hermes-agent#102629). Server-side compaction (`context_management: [{type: 'compaction',
//   compact_threshold}]` on create): once what the model reads crosses the threshold, a compaction item leads
//   the output and replaces what the model read; the model reads each request from its last compaction item on.
//   With `responsesBinding`, encrypted reasoning binds the items before it as the model read them: reasoning
//   whose items before it changed is dropped from what the model reads, without an error (`droppedReasoning`).
// - Amazon Bedrock InvokeModel for Claude (POST /model/{modelId}/invoke, the Messages API body): SigV4-signed
//   or a 403; `anthropic_version: 'bedrock-2023-05-31'` in the body, the model in the path (not the body), the
//   betas in the body's `anthropic_beta` (a list) instead of a header; compaction (compact-2026-01-12) only for
//   the models Bedrock's compaction page lists (Claude Sonnet 4.6, Opus 4.6). The Messages API rules above,
//   context management included, then apply; errors have Bedrock's shape (`x-amzn-ErrorType`, `{message}`).
//
//   const p = await startStrictProvider();
//   p.url                         // 'http://127.0.0.1:PORT'
//   p.reply = (req) => [{ type: 'text', text: 'ok' }]   // Anthropic content (or Responses output) to answer
//   p.override = (r) => r.body.compaction ? { status: 529, body: {...} } : null   // script a failure
//   p.requests                    // [{ api, path, headers, body, status, error?, read?, appliedEdits?, droppedReasoning? }]
//   await p.close();

import http from 'node:http';
import { createHmac, randomBytes, createHash } from 'node:crypto';
import { checkContextManagement, applyContextManagement, dropBeforeLastCompaction } from './context-management.mjs';

const COMPACT_BETAS = ['compact-2026-09-04', 'compact-2026-01-12'];

/** JSON with object keys sorted, so that a re-parsed or re-built value hashes the same. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).filter((k) => value[k] !== undefined).sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

function blocksOf(message) {
  if (!message) return [];
  if (typeof message.content === 'string') return [{ type: 'text', text: message.content }];
  return Array.isArray(message.content) ? message.content : [];
}

/**
 * The turns the Messages API reads: each run of consecutive user (or assistant) messages combined into one, their
 * blocks in order. `from` and `to` name the messages a turn was made of.
 */
function combinedTurns(messages) {
  const turns = [];
  messages.forEach((m, i) => {
    const last = turns[turns.length - 1];
    if (last && m && (m.role === 'user' || m.role === 'assistant') && last.role === m.role) {
      last.content = [...last.content, ...blocksOf(m)];
      last.to = i;
    } else {
      turns.push({ role: m && m.role, content: blocksOf(m), from: i, to: i });
    }
  });
  return turns;
}

class Reject extends Error {
  constructor(status, type, message, errorCode) {
    super(message);
    this.status = status;
    this.type = type;
    this.errorCode = errorCode;
  }
}
const invalid = (message, errorCode) => new Reject(400, 'invalid_request_error', message, errorCode);

export async function startStrictProvider(options = {}) {
  const secret = randomBytes(16);
  const sign = (...parts) => createHmac('sha256', secret).update(parts.join('\u0000')).digest('base64url');
  const state = {
    /** Anthropic: thinking signatures bind the conversation before them (newer models). */
    prefixBinding: options.prefixBinding !== false,
    /** OpenAI Responses: encrypted reasoning binds the items before it, as the model read them (off unless asked). */
    responsesBinding: options.responsesBinding === true,
    requests: [],
    /** (request) => Anthropic content blocks, or Responses output items, to answer with. */
    reply: options.reply || null,
    /** (record) => {status, body} to answer instead of the rules (an outage, an error the test scripts), or null. */
    override: null,
  };

  // ---- Anthropic ---------------------------------------------------------------------------------------
  const prefixHash = (body, messages) => createHash('sha256')
    .update(canonical({ system: body.system ?? null, tools: body.tools ?? null,
      messages: messages.map((m) => ({ role: m.role, content: blocksOf(m) })) }))
    .digest('base64url');
  const thinkingSignature = (text, prefix) => `${prefix}.${sign('thinking', text, prefix)}`;
  const compactionSignature = (content) => `cmp.${sign('compaction', content)}`;
  // What each compaction block this server wrote replaced: the compaction request's system, tools and messages
  // as sent (themselves led by an earlier block, when it compacted again). The real API carries this in the
  // block's encrypted content. "Compaction and preserved thinking" (platform.claude.com/docs/build-with-claude/
  // compaction-thinking-blocks): when the API wrote the summary, the prefix check accepts the replacement, so the
  // thinking of the kept turns stays valid while (1) every compaction ran on a model with preserved thinking,
  // (2) the kept turns follow the summarized messages at once, verbatim, the first of them in another role than
  // the last summarized one (else the API merges the two), and (3) system and tools are the same in the
  // compaction request, in the request that produced the thinking and in the later ones. Thinking produced
  // after a block binds to that block and stays valid through later compactions that meet the conditions.
  const compactions = new Map();
  /** The summaries this server wrote by threshold compaction (compact_20260112): unsigned blocks, as its answers hold them. */
  const thresholdSummaries = new Set();
  /**
   * The message lists a list led by one of this server's compaction blocks may stand for, for a thinking block's
   * prefix: what the block replaced, and, when that was itself led by a block, what that one replaced, and so on.
   */
  const originalsOf = (messages, system, tools) => {
    const first = blocksOf(messages[0])[0];
    const record = first && first.type === 'compaction' ? compactions.get(first.signature) : undefined;
    if (!record || canonical(record.system) !== canonical(system) || canonical(record.tools) !== canonical(tools)) return [];
    const kept = keptAfterBlock(messages);
    if (kept.length && record.messages.length && kept[0].role === record.messages[record.messages.length - 1].role) return [];
    return [record.messages, ...originalsOf(record.messages, system, tools).map((o) => [...o, ...keptAfterBlock(record.messages)])];
  };
  /** The kept messages before turn `i` of a list led by a compaction block (none inside the block's own turn). */
  const keptBefore = (messages, i) => (i === 0 ? [] : keptAfterBlock(messages).slice(0, blocksOf(messages[0]).length > 1 ? i : i - 1));
  /** The messages kept after the compaction block that leads `messages`: what follows it in its own turn, then the rest. */
  const keptAfterBlock = (messages) => {
    const rest = blocksOf(messages[0]).slice(1);
    return [...(rest.length ? [{ role: messages[0].role, content: rest }] : []), ...messages.slice(1)];
  };
  function checkAnthropicPairs(messages) {
    messages.forEach((m, i) => {
      const blocks = blocksOf(m);
      if (m.role === 'assistant') {
        // (a tool_use's input is the object the tool was called with: "Input should be a valid dictionary")
        blocks.forEach((b, j) => {
          if (b && b.type === 'tool_use' && (b.input === null || typeof b.input !== 'object' || Array.isArray(b.input)))
            throw invalid(`messages.${i}.content.${j}.tool_use.input: Input should be a valid dictionary`);
        });
        const calls = blocks.filter((b) => b && b.type === 'tool_use').map((b) => b.id);
        if (calls.length && i + 1 < messages.length) {
          const next = messages[i + 1];
          const answered = new Set(next.role === 'user' ? blocksOf(next).filter((b) => b && b.type === 'tool_result').map((b) => b.tool_use_id) : []);
          const missing = calls.filter((id) => !answered.has(id));
          if (missing.length) throw invalid(`messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`);
          const lead = blocksOf(next).findIndex((b) => !b || b.type !== 'tool_result');
          const lastResult = blocksOf(next).map((b) => b && b.type).lastIndexOf('tool_result');
          if (lead !== -1 && lead < lastResult) throw invalid(`messages.${i + 1}: \`tool_result\` blocks must come first in the user message that answers tool calls`);
        }
        for (const [kind, result] of [['server_tool_use', /_tool_result$/], ['mcp_tool_use', /^mcp_tool_result$/]]) {
          for (const b of blocks.filter((x) => x && x.type === kind)) {
            const ok = blocks.some((x) => x && result.test(x.type) && x.tool_use_id === b.id);
            const pausedAtEnd = i === messages.length - 1 && blocks[blocks.length - 1] === b;
            if (!ok && !pausedAtEnd) throw invalid(`messages.${i}: \`${kind}\` block ${b.id} has no result block in the same message`);
          }
        }
      } else if (m.role === 'user') {
        const prev = i > 0 ? messages[i - 1] : null;
        const calls = new Set(prev && prev.role === 'assistant' ? blocksOf(prev).filter((b) => b && b.type === 'tool_use').map((b) => b.id) : []);
        for (const b of blocks) {
          if (b && b.type === 'tool_result' && !calls.has(b.tool_use_id))
            throw invalid(`messages.${i}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.tool_use_id}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`);
        }
      }
    });
  }

  function checkAnthropicCompaction(body, headers) {
    const messages = body.messages;
    const betas = String(headers['anthropic-beta'] || '').split(',').map((s) => s.trim());
    const found = [];
    messages.forEach((m, i) => blocksOf(m).forEach((b, j) => { if (b && b.type === 'compaction') found.push({ m, i, j, b }); }));
    if ((found.length || body.compaction) && !betas.some((b) => COMPACT_BETAS.includes(b)))
      throw invalid('compaction requires the anthropic-beta header compact-2026-09-04');
    const withContent = found.filter((f) => f.b.content != null);
    if (withContent.length > 1)
      throw invalid('messages holds more than one `compaction` block with content; send only the one returned last', 'compaction_block_ambiguous');
    for (const { m, i, j, b } of withContent) {
      if (m.role === 'system' || i !== 0 || j !== 0)
        throw invalid(`messages.${i}.content.${j}: the \`compaction\` block must be the first block of the conversation`, 'compaction_block_misplaced');
      if (b.signature == null && thresholdSummaries.has(b.content)) continue;
      if (typeof b.signature !== 'string' || !b.signature.startsWith('cmp.'))
        throw invalid(`messages.${i}.content.${j}: the \`compaction\` block's signature does not verify`, 'compaction_signature_invalid');
      if (b.signature !== compactionSignature(b.content))
        throw invalid(`messages.${i}.content.${j}: the \`compaction\` block's content differs from what its signature recorded`, 'compaction_content_mismatch');
    }
  }

  /** Verifies thinking blocks; returns the input_transformations of blocks dropped by block_binding. */
  function checkAnthropicThinking(body) {
    const messages = body.messages;
    const drop = body.thinking && body.thinking.block_binding && body.thinking.block_binding.prefix_mismatch_behavior === 'drop_block';
    const transformations = [];
    const originals = originalsOf(messages, body.system ?? null, body.tools ?? null);
    let lastAssistant = -1;
    messages.forEach((m, i) => { if (m.role === 'assistant') lastAssistant = i; });
    messages.forEach((m, i) => {
      if (m.role !== 'assistant') return;
      blocksOf(m).forEach((b, j) => {
        if (!b || (b.type !== 'thinking' && b.type !== 'redacted_thinking')) return;
        const text = b.type === 'thinking' ? b.thinking : '';
        const sig = b.type === 'thinking' ? b.signature : b.data;
        const [prefix, mac] = String(sig || '').split('.');
        const macOk = !!mac && (b.type === 'thinking' ? thinkingSignature(text, prefix) === sig : `${prefix}.${sign('redacted', prefix)}` === sig);
        if (!macOk) {
          // Older models ignore the thinking of earlier turns; the latest assistant message's is always checked.
          if (!state.prefixBinding && i !== lastAssistant) return;
          throw invalid(`messages.${i}.content.${j}: \`${b.type}\` blocks must be passed back unmodified, as the API returned them`);
        }
        // After a leading compaction block, the conversation before a block is what the block replaced, then the
        // kept messages before it (those of the block's own turn included).
        // (thinking written after a threshold compaction's block, in the same answer, read only the block)
        const afterBlock = j > 0 && blocksOf(m)[0] && blocksOf(m)[0].type === 'compaction';
        const bound = prefix === prefixHash(body, messages.slice(0, i))
          || (afterBlock && prefix === prefixHash(body, [...messages.slice(0, i), { role: m.role, content: [blocksOf(m)[0]] }]))
          || ((i > 0 || j > 0) && originals.some((o) => prefix === prefixHash(body, [...o, ...keptBefore(messages, i)])));
        if (state.prefixBinding && !bound) {
          if (drop) { transformations.push({ type: 'thinking_dropped', path: `messages.${i}.content.${j}`, reason: 'prefix_binding_mismatch' }); return; }
          throw invalid(`messages.${i}.content.${j}: the conversation before this \`${b.type}\` block differs from the one it was created in (prefix_binding_mismatch)`);
        }
      });
    });
    const thinkingOn = body.thinking && (body.thinking.type === 'enabled' || body.thinking.type === 'adaptive');
    const last = messages[messages.length - 1];
    const inToolLoop = last && last.role === 'user' && blocksOf(last).some((b) => b && b.type === 'tool_result');
    if (thinkingOn && inToolLoop && lastAssistant >= 0) {
      const blocks = blocksOf(messages[lastAssistant]);
      const first = blocks[0] && blocks[0].type === 'compaction' ? blocks[1] : blocks[0];
      if (!first || (first.type !== 'thinking' && first.type !== 'redacted_thinking'))
        throw invalid(`messages.${lastAssistant}.content.${first === blocks[0] ? 0 : 1}: with thinking enabled, the assistant message of a tool loop in flight must start with a \`thinking\` or \`redacted_thinking\` block, found \`${first ? first.type : 'nothing'}\``);
    }
    return transformations;
  }

  function anthropicCompact(body) {
    const messages = body.messages;
    const last = messages[messages.length - 1];
    if (last && last.role === 'assistant' && blocksOf(last).some((b) => b && (b.type === 'tool_use' || b.type === 'server_tool_use')))
      throw invalid('the compaction request ends on an assistant turn that is not finished', 'compaction_incomplete_turn');
    const texts = [];
    for (const m of messages) {
      for (const b of blocksOf(m)) {
        if (!b) continue;
        if (b.type === 'text') texts.push(b.text);
        else if (b.type === 'compaction' && b.content) texts.push(`(earlier summary: ${b.content})`);
        else if (b.type === 'tool_result') texts.push(typeof b.content === 'string' ? b.content : '');
      }
    }
    if (!texts.some((t) => t && t.trim())) throw invalid('messages holds nothing to summarize', 'compaction_nothing_to_summarize');
    const content = `Summary of ${messages.length} messages. ${texts.join(' | ').replace(/\s+/g, ' ').slice(0, 400)}`;
    compactions.set(compactionSignature(content), { system: body.system ?? null, tools: body.tools ?? null, messages: structuredClone(messages) });
    return {
      content: [{ type: 'compaction', content, encrypted_content: `enc.${sign('enc', content)}`, signature: compactionSignature(content) }],
      stop_reason: 'compaction',
    };
  }

  /** A threshold compaction's summary (the real one is the model's). */
  function thresholdSummary(messages, instructions) {
    const texts = [];
    for (const m of messages) for (const b of blocksOf(m)) {
      if (b && b.type === 'text') texts.push(b.text);
      else if (b && b.type === 'tool_use') texts.push(`${b.name} ${JSON.stringify(b.input)}`);
      else if (b && b.type === 'compaction' && b.content) texts.push(`(earlier summary: ${b.content.slice(0, 120)})`);
    }
    const content = `Summary of ${messages.length} messages${instructions ? ' (as instructed)' : ''}: ${texts.join(' | ').replace(/\s+/g, ' ').slice(0, 600)}`;
    thresholdSummaries.add(content);
    return content;
  }

  function anthropicAnswer(sent, headers, record = {}) {
    if (!Array.isArray(sent.messages) || sent.messages.length === 0) throw invalid('messages: at least one message is required');
    if (typeof sent.model !== 'string') throw invalid('model: field required');
    const edits = checkContextManagement(sent, headers, invalid);
    // The API reads combined turns: every rule is checked, and every signature issued, on them; with compaction
    // on, from the last compaction block on ("the API automatically drops all message blocks prior to the
    // compaction block").
    const turns = combinedTurns(sent.messages);
    let read = turns.map(({ role, content }) => ({ role, content }));
    if (edits && edits.some((e) => e.type === 'compact_20260112')) read = dropBeforeLastCompaction(read);
    const body = { ...sent, messages: read };
    let inputTransformations;
    try {
      checkAnthropicPairs(body.messages);
      checkAnthropicCompaction(body, headers);
      inputTransformations = checkAnthropicThinking(body);
    } catch (e) {
      const combined = turns.filter((t) => t.to > t.from);
      if (!(e instanceof Reject) || !combined.length) throw e;
      // Name the turns by the messages they were combined from.
      e.message = `${e.message} (the request's consecutive messages ${combined.map((t) => `${t.from}–${t.to} (${t.role})`).join(', ')} were combined into one turn each; the indices above are turns)`;
      throw e;
    }
    let content; let stopReason = 'end_turn';
    // Edits change what the model reads, after the checks above read what was sent.
    const managed = edits ? applyContextManagement(body.messages, edits, thresholdSummary) : null;
    if (managed) Object.assign(record, { read: managed.read, appliedEdits: managed.appliedEdits, edits });
    if (body.compaction) ({ content, stop_reason: stopReason } = anthropicCompact(body));
    else if (managed && managed.pause) ({ content, stopReason } = { content: [managed.compaction], stopReason: 'compaction' });
    else {
      content = state.reply ? state.reply({ api: 'anthropic', body: sent, read: managed ? managed.messages : body.messages }) : [{ type: 'text', text: 'ok' }];
      // Thinking binds to what it followed: the conversation, or the block a compaction just wrote.
      const prefix = prefixHash(body, managed && managed.compaction ? managed.messages : body.messages);
      content = content.map((b) => b.type === 'thinking' ? { ...b, signature: thinkingSignature(b.thinking, prefix) }
        : b.type === 'redacted_thinking' ? { ...b, data: `${prefix}.${sign('redacted', prefix)}` } : b);
      if (content.some((b) => b.type === 'tool_use')) stopReason = 'tool_use';
      if (managed && managed.compaction) content = [managed.compaction, ...content];
    }
    const inputTokens = managed ? managed.inputTokens : Math.ceil(JSON.stringify(sent.messages).length / 4);
    const out = { id: `msg_${randomBytes(6).toString('hex')}`, type: 'message', role: 'assistant', model: sent.model,
      content, stop_reason: stopReason, stop_sequence: null,
      usage: { input_tokens: inputTokens, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0,
        ...(managed && managed.iterations.length ? { iterations: managed.iterations } : {}) } };
    if (managed) out.context_management = { applied_edits: managed.appliedEdits };
    if (inputTransformations.length) out.input_transformations = inputTransformations;
    return out;
  }

  // ---- OpenAI Responses --------------------------------------------------------------------------------
  const OUTPUTS = { function_call_output: 'function_call', custom_tool_call_output: 'custom_tool_call',
    computer_call_output: 'computer_call', local_shell_call_output: 'local_shell_call', shell_call_output: 'shell_call',
    apply_patch_call_output: 'apply_patch_call' };
  const CALLS = new Set(Object.values(OUTPUTS));
  const itemType = (item) => (item && (item.type || (item.role ? 'message' : undefined)));

  // A compaction item's encrypted content as this server writes it: its signature, padded to the size real ones
  // have (7,800 to 8,968 bytes seen from gpt-5-mini, Menci/Floway#314), so that what a request carries for it
  // is counted at a realistic size.
  const compactionContent = (id) => {
    const mac = sign('openai-compaction', id);
    let pad = '';
    for (let k = 0; pad.length < 8000; k++) pad += sign('openai-compaction-pad', id, String(k));
    return `cmp.${mac}.${pad.slice(0, 8000)}`;
  };

  function checkResponsesInput(input) {
    if (!Array.isArray(input)) return;
    const calls = new Map();
    input.forEach((item, i) => {
      const t = itemType(item);
      if (CALLS.has(t)) calls.set(item.call_id, { i, answered: item.async === true, type: t, outputs: 0 }); // an async call may wait
      else if (OUTPUTS[t]) {
        const call = calls.get(item.call_id);
        if (!call || call.type !== OUTPUTS[t]) throw invalid(`input[${i}]: No tool call found for ${t.replace(/_/g, ' ')} with call_id ${item.call_id}.`);
        if (call.outputs++) throw invalid(`input[${i}]: Duplicate ${t} for call_id '${item.call_id}'. Each ${call.type} must have exactly one matching ${t}.`);
        call.answered = true;
      } else if (t === 'reasoning') {
        const next = input[i + 1];
        const nt = itemType(next);
        if (!next || nt === 'reasoning' || (nt === 'message' && next.role !== 'assistant') || OUTPUTS[nt])
          throw invalid(`input[${i}]: Item '${item.id}' of type 'reasoning' was provided without its required following item.`);
        if (item.encrypted_content != null && item.encrypted_content !== `rs.${sign('reasoning', item.id)}`) {
          // (bound reasoning: rs.<prefix>.<mac>, the prefix checked against the items before it by responsesAnswer)
          const [, prefix, mac] = String(item.encrypted_content).split('.');
          if (!mac || mac !== sign('reasoning', item.id, prefix))
            throw invalid(`input[${i}]: the encrypted content of reasoning item '${item.id}' could not be verified.`);
        }
      } else if (t === 'configuration_update') {
        if (item.reasoning == null && item.text == null) throw invalid(`input[${i}]: a configuration_update needs reasoning, text, or both.`);
        if (i > 0 && itemType(input[i - 1]) === 'configuration_update')
          throw invalid(`input[${i}]: a configuration_update item cannot directly follow another configuration_update item.`);
      } else if (t === 'compaction') {
        if (item.encrypted_content !== compactionContent(item.id))
          throw invalid(`input[${i}]: the encrypted content of compaction item '${item.id}' could not be verified.`);
      }
    });
    for (const [id, call] of calls) {
      if (!call.answered) throw invalid(`input[${call.i}]: No tool output found for ${call.type.replace(/_/g, ' ')} ${id}.`);
    }
  }

  /**
   * `context_management` of a Responses create request, checked: the compaction entry's threshold, or null.
   * ("Currently only 'compaction' is supported", the SDK's ContextManagement type; compact_threshold a token count.)
   */
  function responsesContextManagement(body) {
    const cm = body.context_management;
    if (cm == null) return null;
    if (!Array.isArray(cm)) throw invalid("Invalid type for 'context_management': expected an array.");
    let threshold = null;
    cm.forEach((entry, i) => {
      if (!entry || entry.type !== 'compaction') throw invalid(`Invalid value for 'context_management[${i}].type': only 'compaction' is supported.`);
      if (entry.compact_threshold != null && !(Number.isInteger(entry.compact_threshold) && entry.compact_threshold > 0))
        throw invalid(`Invalid 'context_management[${i}].compact_threshold': expected a positive integer.`);
      threshold = entry.compact_threshold ?? threshold;
    });
    return { threshold };
  }

  /** `input` from the last compaction item on (leading system and developer messages kept): what the model reads. */
  const leadingInstructions = (input) => {
    let head = 0;
    while (head < input.length && itemType(input[head]) === 'message' && (input[head].role === 'system' || input[head].role === 'developer')) head++;
    return head;
  };
  const fromLastCompactionItem = (input) => {
    const head = leadingInstructions(input);
    for (let i = input.length - 1; i >= head; i--) if (itemType(input[i]) === 'compaction') return [...input.slice(0, head), ...input.slice(i)];
    return input;
  };
  /** What a reasoning item's binding covers of an item: what the model reads of it, however an SDK re-spells it. */
  const readOfItem = (item) => {
    const t = itemType(item);
    const text = (c) => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (p && (p.text ?? p.refusal)) || '').join('') : '');
    return { t, role: item.role ?? null, call_id: item.call_id ?? null, name: item.name ?? null, arguments: item.arguments ?? null,
      output: item.output == null ? null : typeof item.output === 'string' ? item.output : text(item.output),
      text: t === 'message' ? text(item.content) : null, id: t === 'reasoning' || t === 'compaction' ? item.id : null };
  };
  const itemsHash = (items) => createHash('sha256').update(canonical(items.filter((x) => itemType(x) !== 'reasoning').map(readOfItem))).digest('base64url');
  const boundReasoning = (id, items) => { const prefix = itemsHash(items); return `rs.${prefix}.${sign('reasoning', id, prefix)}`; };

  function responsesAnswer(body, record = {}) {
    if (typeof body.model !== 'string') throw invalid('model: field required');
    if (body.previous_response_id != null) throw invalid(`Previous response with id '${body.previous_response_id}' not found.`);
    const managed = responsesContextManagement(body);
    const input = Array.isArray(body.input) ? body.input : [{ role: 'user', content: String(body.input ?? '') }];
    // The model reads from the last compaction item on ("you can drop items that came before the most recent
    // compaction item … The latest compaction item carries the necessary context"): the rules hold there.
    const view = fromLastCompactionItem(input);
    checkResponsesInput(view);
    // Reasoning whose items before it changed since it was produced is dropped, without an error: "If you edit,
    // shorten, or insert a message in that prefix, the API drops the affected reasoning. The request can continue
    // with the conversation you provide" (OpenAI's "Preserved reasoning" guide). The model reads the rest; the
    // record names what went (`droppedReasoning`), which the API's answer does not.
    let seen = view;
    if (state.responsesBinding) {
      const dropped = view.filter((item, i) => itemType(item) === 'reasoning' && item.encrypted_content != null
        && String(item.encrypted_content).split('.')[1] !== itemsHash(view.slice(0, i)));
      record.droppedReasoning = dropped.map((item) => item.id);
      if (dropped.length) seen = view.filter((item) => !dropped.includes(item));
    }
    const tokens = (items) => Math.ceil(JSON.stringify(items).length / 4);
    let read = tokens(seen);
    let modelView = seen;
    let compaction = null;
    // "When the rendered token count crosses the configured threshold, the server runs server-side compaction"
    // and "the response stream includes the encrypted compaction item": it replaces what the model read.
    if (managed && managed.threshold != null && read >= managed.threshold) {
      const id = `cmp_${randomBytes(6).toString('hex')}`;
      compaction = { type: 'compaction', id, encrypted_content: compactionContent(id) };
      modelView = [...seen.slice(0, leadingInstructions(seen)), compaction];
    }
    let output = state.reply ? state.reply({ api: 'openai-responses', body, read: modelView })
      : [{ type: 'message', id: `msg_${randomBytes(4).toString('hex')}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }];
    if (compaction) output = [compaction, ...output];
    output = output.map((item, k) => (item.type !== 'reasoning' ? item
      : { ...item, encrypted_content: state.responsesBinding ? boundReasoning(item.id, [...modelView, ...output.slice(compaction ? 1 : 0, k)]) : `rs.${sign('reasoning', item.id)}` }));
    const inputTokens = tokens(modelView);
    if (managed) Object.assign(record, { read: compaction ? Math.max(read, inputTokens) : inputTokens, compacted: !!compaction, threshold: managed.threshold });
    return { id: `resp_${randomBytes(6).toString('hex')}`, object: 'response', created_at: 1764547200, model: body.model,
      status: 'completed', output, usage: { input_tokens: inputTokens, output_tokens: 10, total_tokens: 0 } };
  }

  function responsesCompact(body) {
    if (typeof body.model !== 'string') throw invalid('model: field required');
    // This server keeps no responses: a chain it cannot read is refused, as the API refuses an unknown id.
    if (body.previous_response_id != null) throw invalid(`Previous response with id '${body.previous_response_id}' not found.`);
    checkResponsesInput(body.input);
    const input = Array.isArray(body.input) ? body.input : [{ role: 'user', content: String(body.input || '') }];
    if (!input.length) throw invalid('input: nothing to compact');
    const id = `cmp_${randomBytes(6).toString('hex')}`;
    // The user messages come back as the API writes output messages (an id, status, input_text parts), then
    // the compaction item last (OpenAI's compaction guide; the Agents SDK's pull request #760 shows a real answer).
    const users = input.filter((item) => itemType(item) === 'message' && item.role === 'user').map((item, k) => ({
      id: `msg_${id.slice(4)}${k}`, type: 'message', status: 'completed', role: 'user',
      content: typeof item.content === 'string' ? [{ type: 'input_text', text: item.content }] : item.content }));
    return { id: `resp_${randomBytes(6).toString('hex')}`, object: 'response.compaction', created_at: 1764547200,
      output: [...users, { type: 'compaction', id, encrypted_content: compactionContent(id) }],
      usage: { input_tokens: Math.ceil(JSON.stringify(input).length / 4), output_tokens: 50, total_tokens: 0 } };
  }

  /** Sends an Anthropic message as the Messages API streams it (server-sent events). */
  function stream(res, record, message) {
    record.status = 200;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const event = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    event('message_start', { message: { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } } });
    message.content.forEach((block, index) => {
      const start = block.type === 'text' ? { ...block, text: '' } : block.type === 'tool_use' ? { ...block, input: {} }
        : block.type === 'thinking' ? { ...block, thinking: '', signature: '' }
          : block.type === 'compaction' ? { ...block, content: null } : block;
      event('content_block_start', { index, content_block: start });
      if (block.type === 'text') event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
      if (block.type === 'tool_use') event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) } });
      if (block.type === 'compaction') event('content_block_delta', { index, delta: { type: 'compaction_delta', content: block.content, encrypted_content: null } });
      if (block.type === 'thinking') {
        event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } });
        event('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } });
      }
      event('content_block_stop', { index });
    });
    event('message_delta', { delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: message.usage.output_tokens, ...(message.usage.iterations ? { iterations: message.usage.iterations } : {}) },
      ...(message.context_management ? { context_management: message.context_management } : {}) });
    event('message_stop', {});
    res.end();
  }

  // ---- Amazon Bedrock InvokeModel (Claude) -----------------------------------------------------------------
  const bedrockRefusal = (status, type, message) => Object.assign(new Reject(status, type, message), { bedrock: true });
  const BEDROCK_COMPACTION = /^(?:[a-z]{2,6}\.)?anthropic\.claude-(?:sonnet-4-6|opus-4-6-v1)(?::\d+)?$/;
  function bedrockInvoke(modelId, body, headers, record) {
    if (!/^AWS4-HMAC-SHA256 Credential=/.test(headers.authorization || ''))
      throw bedrockRefusal(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
    const validation = (message) => bedrockRefusal(400, 'ValidationException', message);
    if (body.anthropic_version !== 'bedrock-2023-05-31') throw validation('Malformed input request: anthropic_version: bedrock-2023-05-31 is required');
    if ('model' in body) throw validation('Malformed input request: extraneous key [model] is not permitted');
    const betas = body.anthropic_beta ?? [];
    if (!Array.isArray(betas) || betas.some((b) => typeof b !== 'string')) throw validation('Malformed input request: anthropic_beta must be a list of strings');
    if (betas.includes('compact-2026-01-12') && !BEDROCK_COMPACTION.test(modelId))
      throw validation(`compaction (compact-2026-01-12) is not supported for the model ${modelId}`);
    const { anthropic_version: _v, anthropic_beta: _b, ...messages } = body;
    try {
      return anthropicAnswer({ ...messages, model: modelId }, { 'anthropic-beta': betas.join(',') }, record);
    } catch (e) {
      if (e instanceof Reject && !e.bedrock) throw validation(e.message);
      throw e;
    }
  }

  // ---- HTTP ----------------------------------------------------------------------------------------------
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const record = { path: req.url, headers: req.headers, body: null, status: 200 };
      state.requests.push(record);
      const send = (status, json) => {
        record.status = status;
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${state.requests.length}` });
        res.end(JSON.stringify(json));
      };
      const path = String(req.url).split('?')[0];
      const invoke = /^\/model\/([^/]+)\/invoke$/.exec(path);
      const api = path === '/v1/messages' ? 'anthropic' : path.startsWith('/v1/responses') ? 'openai-responses' : invoke ? 'bedrock' : null;
      record.api = api;
      try {
        if (req.method !== 'POST' || !api) throw new Reject(404, 'not_found_error', `no route ${req.method} ${path}`);
        try { record.body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { throw invalid('the request body is not valid JSON'); }
        const body = record.body;
        if (!body || typeof body !== 'object') throw invalid('the request body must be an object');
        const forced = state.override && state.override(record);
        if (forced) { send(forced.status, forced.body); return; }
        if (api === 'anthropic' && body.stream === true) stream(res, record, anthropicAnswer(body, req.headers, record));
        else if (api === 'anthropic') send(200, anthropicAnswer(body, req.headers, record));
        else if (api === 'bedrock') send(200, bedrockInvoke(decodeURIComponent(invoke[1]), body, req.headers, record));
        else if (path === '/v1/responses/compact') send(200, responsesCompact(body));
        else if (path === '/v1/responses') send(200, responsesAnswer(body, record));
        else throw new Reject(404, 'not_found_error', `no route ${path}`);
      } catch (e) {
        if (!(e instanceof Reject)) throw e;
        record.error = { message: e.message, errorCode: e.errorCode };
        if (api === 'bedrock') {
          record.status = e.status;
          res.writeHead(e.status, { 'content-type': 'application/json', 'x-amzn-errortype': `${e.type}:http://internal.amazon.com/coral/com.amazon.bedrock/` });
          res.end(JSON.stringify({ message: e.message }));
        } else if (api === 'openai-responses') send(e.status, { error: { message: e.message, type: e.type, param: null, code: e.errorCode || null } });
        else send(e.status, { type: 'error', error: { type: e.type, message: e.message, ...(e.errorCode ? { details: { error_code: e.errorCode } } : {}) } });
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    /** A thinking block as this server would have issued it after `messages` (for fixtures). */
    signThinking(body, messages, thinking) { return { type: 'thinking', thinking, signature: thinkingSignature(thinking, prefixHash(body, messages)) }; },
    /** A compaction block as this server would have issued it (for fixtures). */
    signCompaction(content) { return { type: 'compaction', content, encrypted_content: `enc.${sign('enc', content)}`, signature: compactionSignature(content) }; },
    /** A reasoning item as this server would have issued it (for fixtures). */
    signReasoning(id, summary) { return { type: 'reasoning', id, summary: [{ type: 'summary_text', text: summary }], encrypted_content: `rs.${sign('reasoning', id)}` }; },
    close() { return new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }); },
  });
}
