/**
 * A Cloudflare chat agent (`AIChatAgent` of @cloudflare/ai-chat) whose history midfold keeps inside the model's
 * context window. The agent keeps every UIMessage of the chat in its Durable Object, as it does without midfold;
 * before each model call the history is folded (old tool results cleared, the resolved middle summarized by the
 * same model, the live tail kept verbatim), and the fold is remembered in the same object's storage, so the next
 * turn sends the same compacted prefix again (the provider's prompt cache holds) and a summary is written only
 * when the history has grown past the threshold again. The turn's own tool loop is folded between its steps.
 *
 *   WebSocket /agents/chat/<chat name>?token=<CLIENT_TOKEN>   what `useAgentChat` connects to
 *   GET /agents/chat/<chat name>/get-messages                 the chat's stored UIMessages (whole)
 *
 * Environment (docs/cloudflare-agents.md):
 *   CLIENT_TOKEN        (secret) the token clients present; unset, every request is refused
 *   ANTHROPIC_API_KEY   (secret) the model's key
 *   ANTHROPIC_BASE_URL  the Messages API's base URL (default Anthropic's)
 *   MODEL               the model (default claude-sonnet-4-6)
 *   THRESHOLD           fold above this many estimated tokens (default 50000, the Compactor's)
 *   FILES_BASE_URL      where read_file reads the repository from (unset: no tool)
 */
import { AIChatAgent } from '@cloudflare/ai-chat';
import { routeAgentRequest } from 'agents';
import { convertToModelMessages, createUIMessageStream, createUIMessageStreamResponse, stepCountIs, streamText } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { init, SessionState } from 'midfold';
import { compactStep, compactUIMessages, languageModelSummarizer } from 'midfold/ai-sdk';
import { refusal } from './auth.js';
import { storageStore } from './storage-store.js';
import { repositoryTools } from './tools.js';

// A SQLite-backed object's value (with its key) holds 2 MB: the state drops its oldest snapshots to stay under.
const MAX_STATE_BYTES = 1024 * 1024;

export class Chat extends AIChatAgent {
  async onChatMessage(onFinish, options = {}) {
    await init();
    const { env } = this;
    const model = createAnthropic({ apiKey: env.ANTHROPIC_API_KEY, baseURL: env.ANTHROPIC_BASE_URL || undefined })(env.MODEL || 'claude-sonnet-4-6');
    const settings = { summarize: languageModelSummarizer(model), ...(env.THRESHOLD ? { threshold: Number(env.THRESHOLD) } : {}) };
    const signal = options.abortSignal;
    // One chat per object: its fold is remembered under one key of the object's own storage.
    const state = new SessionState({ store: storageStore(this.ctx.storage), key: 'chat', maxBytes: MAX_STATE_BYTES });
    // this.messages stays whole (it is the chat's history); what the model reads is the folded copy.
    const { messages, summaryPart } = await compactUIMessages(this.messages, { compactor: settings, state, signal });
    const stream = createUIMessageStream({
      originalMessages: this.messages,
      execute: async ({ writer }) => {
        // Kept in the new assistant message: a client can show "earlier messages summarized" there.
        if (summaryPart) writer.write(summaryPart);
        const result = streamText({
          model, tools: repositoryTools(env.FILES_BASE_URL), stopWhen: stepCountIs(20), abortSignal: signal, onFinish,
          messages: await convertToModelMessages(messages),
          prepareStep: compactStep({ ...settings, signal }),
        });
        writer.merge(result.toUIMessageStream());
      },
    });
    return createUIMessageStreamResponse({ stream });
  }
}

export default {
  async fetch(request, env) {
    const refused = await refusal(request, env);
    if (refused) return refused;
    return (await routeAgentRequest(request, env)) ?? new Response('not found', { status: 404 });
  },
};
