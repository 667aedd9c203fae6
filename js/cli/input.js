/**
 * input.js — what FILE (or stdin) holds, as a conversation: a JSON array of messages, a
 * request body (its "messages", a Responses body's "input"), or an agent log (Claude Code,
 * Codex CLI), recognized by its content.
 */
import { readFile } from 'node:fs/promises';
import { agentLogFormat, readAgentLog } from '../logs/index.js';
import { UsageError } from './args.js';

const LOG_NAMES = { 'claude-code': 'Claude Code session log', codex: 'Codex CLI rollout' };

async function readText(file) {
  if (file === '-') {
    const chunks = [];
    for await (const chunk of process.stdin) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  return readFile(file, 'utf8').catch((e) => { throw new UsageError(`cannot read ${file}: ${e.code || e.message}`); });
}

/**
 * The conversation in `file`: {value (what was read: the array, or the body holding it),
 * messages, key (where the body holds them: null for an array, 'messages' or 'input'), log
 * (an agent log's reading, with `times`), name (how to call the input in messages)}.
 * @param {string} file a path, or '-' for stdin
 */
export async function readConversation(file) {
  const name = file === '-' ? 'stdin' : file;
  const text = await readText(file);
  let value, jsonError;
  try {
    value = JSON.parse(text);
  } catch (e) {
    jsonError = e;
  }
  // (a log of one line is one JSON object too)
  const log = jsonError !== undefined || (value && typeof value === 'object' && !Array.isArray(value)
    && !Array.isArray(value.messages) && !Array.isArray(value.input)) ? agentLogFormat(text) : undefined;
  if (log) {
    let read;
    try {
      read = readAgentLog(text);
    } catch (e) {
      throw new UsageError(`${name}: ${LOG_NAMES[log]}: ${e.message}`);
    }
    return { value: read.messages, messages: read.messages, key: null, log: read, name };
  }
  if (jsonError !== undefined) throw new UsageError(`${name} is not valid JSON: ${jsonError.message}`);
  // A request body holds its conversation under "messages" (Messages, Chat Completions, the
  // AI SDK) or, for the Responses API, under "input"; what is written back goes there too.
  const key = Array.isArray(value) ? null
    : value && typeof value === 'object' && Array.isArray(value.messages) ? 'messages'
      : value && typeof value === 'object' && Array.isArray(value.input) ? 'input' : undefined;
  if (key === undefined) throw new UsageError('expected a JSON array of messages, an object with "messages", a Responses body with "input", or a Claude Code or Codex CLI log');
  return { value, messages: key === null ? value : value[key], key, name };
}

/**
 * Refuses a list that holds something other than messages ([1, 2, 3]), as validate names it:
 * a command would otherwise count or rewrite it as if it were a conversation.
 * @param {unknown[]} messages
 * @param {(messages: unknown[]) => {problems: {code: string, index: number, message: string}[]}} validate
 */
export function requireMessages(messages, validate) {
  const isMessage = (m) => m !== null && typeof m === 'object' && !Array.isArray(m) && (typeof m.role === 'string' || typeof m.type === 'string');
  if (messages.every(isMessage)) return;
  const problem = validate(messages).problems.find((p) => p.code === 'not-a-message');
  const index = problem ? problem.index : messages.findIndex((m) => !isMessage(m));
  throw new UsageError(`message ${index}: not-a-message: ${problem ? problem.message : 'not a message'} (validate lists every problem)`);
}

/** One line on what an agent log held and what was left out of it. */
export function logNote(input) {
  const { log } = input;
  const skipped = Object.entries(log.skipped).sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${n} ${kind}`);
  const parts = [`${input.name}: ${LOG_NAMES[log.format]}, ${log.messages.length} messages (${log.format === 'codex' ? 'openai-responses' : 'anthropic'})`];
  if (skipped.length) parts.push(`left out: ${skipped.join(', ')}`);
  if (log.compactions.length) parts.push(`${log.compactions.length} compaction summar${log.compactions.length === 1 ? 'y' : 'ies'} kept where ${log.compactions.length === 1 ? 'it stands' : 'they stand'}`);
  const missing = log.repaired.filter((r) => r.kind === 'missing-output');
  const orphans = log.repaired.filter((r) => r.kind === 'orphan-output');
  if (missing.length) parts.push(`${missing.length} call${missing.length === 1 ? '' : 's'} an interrupted turn left without output answered "aborted", as Codex does (${missing.map((r) => r.name ? `${r.name} ${r.callId}` : r.callId).join(', ')})`);
  if (orphans.length) parts.push(`${orphans.length} output${orphans.length === 1 ? '' : 's'} without a call dropped`);
  return parts.join('; ');
}
