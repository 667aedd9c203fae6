/**
 * ai-sdk-recall.js — the recall tool in the AI SDK: compactStep and midfoldMiddleware made
 * with `recall` carry their archive and the tool's executor (`.recall`), and recallTool()
 * turns either into an AI SDK `tool()` for `tools`. `ai` is a peer: it is imported when the
 * tool is made, from the application's own install, so this entry still loads without it.
 */
import { MidfoldError } from '../core/errors.js';
import { RECALL_DESCRIPTION, recallInputSchema } from '../recall/definitions.js';

/**
 * `target` with a non-enumerable `recall` property: `{archive, executor}`, or null.
 * @template T
 * @param {T} target
 * @param {{archive: object, executor: Function} | null} recall
 * @returns {T}
 */
export function withRecall(target, recall) {
  Object.defineProperty(target, 'recall', { value: recall, enumerable: false });
  return target;
}

/**
 * The recall tool as an AI SDK tool (ai 6 or 7, whichever the application installed), over
 * the archive of `source`: a compactStep or midfoldMiddleware made with `recall`, or a
 * Compactor made with it. Put it in `tools` under the name `recall`: `tools: { ...tools,
 * recall: await recallTool(prepareStep) }`. An error answer (an unknown id, a page past the
 * end) is thrown, which the SDK sends to the model as the tool's error result.
 * Ownership: keeps `source`'s archive by reference.
 * @param {{recall: {executor: (input: unknown) => Promise<{isError: boolean, text: string}>} | null}} source
 */
export async function recallTool(source) {
  const recall = source && source.recall;
  if (!recall || typeof recall.executor !== 'function')
    throw new MidfoldError('invalid-option', 'recallTool: make compactStep, midfoldMiddleware or the Compactor with recall (recall: true)');
  const { tool, jsonSchema } = await import('ai');
  return tool({
    description: RECALL_DESCRIPTION,
    inputSchema: jsonSchema(recallInputSchema()),
    async execute(input) {
      const { isError, text } = await recall.executor(input);
      if (isError) throw new Error(text);
      return text;
    },
  });
}
