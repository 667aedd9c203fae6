/**
 * recall-tool.js — the recall tool for a loop the host writes itself (the Anthropic SDK's,
 * OpenAI's): its definitions for each API and the answers to the model's calls in each API's
 * shape, over the archive of a Compactor made with `recall` (or any recallArchive). An error
 * answer is marked so where the API has a mark for it (Anthropic's `is_error`); elsewhere its
 * text starts with "recall error:".
 */
import { MidfoldError } from '../core/errors.js';
import { anthropicRecallTool, openAIChatRecallTool, responsesRecallTool, RECALL_TOOL_NAME } from './definitions.js';
import { checkArchive } from './micro.js';
import { recallExecutor } from './tool.js';

/** A call's arguments as JSON text (OpenAI's), read; a text that is no JSON object is the input as given. */
function argumentsOf(text) {
  if (typeof text !== 'string') return text;
  try { return JSON.parse(text); } catch { return text; }
}

/**
 * @param {{compactor?: {recall: {archive: object} | null}, archive?: object, pageTokens?: number,
 *   search?: Function, random?: (bytes: Uint8Array) => Uint8Array}} options a Compactor made with
 *   `recall`, or an archive
 * Ownership: keeps the archive (the Compactor's) by reference.
 */
export function createRecallTool(options) {
  const { compactor, archive: given, ...rest } = options || {};
  if (compactor !== undefined && !(compactor && compactor.recall))
    throw new MidfoldError('invalid-option', 'createRecallTool: the Compactor was made without recall (new Compactor({..., recall: true}))');
  const archive = checkArchive(compactor ? compactor.recall.archive : given, 'createRecallTool');
  const execute = recallExecutor({ archive, ...rest });
  return {
    name: RECALL_TOOL_NAME,
    /** The Anthropic Messages API tool definition. */
    definition: anthropicRecallTool(),
    /** The OpenAI Chat Completions function tool. */
    chatDefinition: openAIChatRecallTool(),
    /** The OpenAI Responses API function tool. */
    responsesDefinition: responsesRecallTool(),
    /** The answer to an input: `{isError, text}`. */
    execute,
    /** The `tool_result` block answering an Anthropic `tool_use` block of this tool. */
    async toolResult(block) {
      const { isError, text } = await execute(block && block.input);
      return { type: 'tool_result', tool_use_id: block.id, content: text, ...(isError ? { is_error: true } : {}) };
    },
    /** The `role: "tool"` message answering a Chat Completions tool call of this tool. */
    async chatToolMessage(call) {
      const { text } = await execute(argumentsOf(call && call.function && call.function.arguments));
      return { role: 'tool', tool_call_id: call.id, content: text };
    },
    /** The `function_call_output` item answering a Responses `function_call` of this tool. */
    async responsesOutput(item) {
      const { text } = await execute(argumentsOf(item && item.arguments));
      return { type: 'function_call_output', call_id: item.call_id, output: text };
    },
  };
}
