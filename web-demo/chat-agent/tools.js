/**
 * tools.js — the chat agent's one tool: `read_file`, which reads a file of the repository published under
 * FILES_BASE_URL (e.g. https://raw.githubusercontent.com/OWNER/REPO/main/). Its results are what makes a chat grow:
 * they are what midfold folds first. Paths are relative, of plain characters, with no `..`: the tool reads under
 * FILES_BASE_URL only.
 */
import { jsonSchema, tool } from 'ai';

const PLAIN_PATH = /^(?!\/)(?!.*(?:^|\/)\.\.(?:\/|$))[\w.\-/]+$/;

/** The tools for `streamText`, reading under `baseURL` (none when it is unset). */
export function repositoryTools(baseURL) {
  if (!baseURL) return {};
  const base = String(baseURL).endsWith('/') ? String(baseURL) : `${baseURL}/`;
  return {
    read_file: tool({
      description: 'Read a file of the repository by its path, e.g. src/estimate.c',
      inputSchema: jsonSchema({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false }),
      execute: async ({ path }) => {
        if (!PLAIN_PATH.test(path)) return `error: ${JSON.stringify(path)} is not a relative path of the repository`;
        const res = await fetch(base + path);
        return res.ok ? res.text() : `error: ${res.status} ${res.statusText} for ${path}`;
      },
    }),
  };
}
