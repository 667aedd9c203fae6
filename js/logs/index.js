/**
 * logs/index.js — the conversation in an agent's own log: a Claude Code session (.jsonl) or a
 * Codex CLI rollout (.jsonl), told apart by what their lines hold, not by the file's name.
 * Reads text only (no file system): the same code serves Node, a browser and a worker.
 */
import { MidfoldError } from '../core/errors.js';
import { jsonLines } from './lines.js';
import { isClaudeCodeLine, readClaudeCode } from './claude-code.js';
import { isCodexLine, readCodex } from './codex.js';

/** Lines looked at to tell the format. */
const SAMPLE = 50;

/**
 * Which agent wrote `lines`: 'claude-code', 'codex', or undefined when the lines are neither
 * (or both: no log mixes them).
 */
function formatOf(lines) {
  let claude = 0, codex = 0;
  for (let i = 0; i < lines.length && i < SAMPLE; i++) {
    if (isClaudeCodeLine(lines[i].value)) claude++;
    else if (isCodexLine(lines[i].value)) codex++;
  }
  if (claude > 0 && codex === 0) return 'claude-code';
  if (codex > 0 && claude === 0) return 'codex';
  return undefined;
}

/**
 * Whether `text` is an agent log readAgentLog reads (a cheap look at its first lines). A JSON
 * document that is a conversation (an array, a request body) is not one.
 * @param {string} text
 * @returns {'claude-code' | 'codex' | undefined}
 */
export function agentLogFormat(text) {
  if (typeof text !== 'string') return undefined;
  const head = [];
  for (let from = 0; from < text.length && head.length < SAMPLE;) {
    let end = text.indexOf('\n', from);
    if (end < 0) end = text.length;
    const raw = text.slice(from, end).trim();
    from = end + 1;
    if (!raw) continue;
    try { head.push({ value: JSON.parse(raw) }); } catch { /* a line cut short, or no JSON Lines at all */ }
  }
  return formatOf(head);
}

/**
 * The conversation an agent log records, as the provider received it: a Claude Code session
 * as Anthropic Messages (`format` 'claude-code'), a Codex CLI rollout as OpenAI Responses items
 * ('codex'). `times[i]` is when messages[i] was written (ISO text, as the log has it).
 * `skipped` counts the lines left out, by kind (a subagent's 'sidechain' lines, 'summary',
 * 'system', 'event_msg', 'turn_context', …, and an 'incomplete-line' the agent was still
 * writing); `compactions` lists where the agent's own compaction summaries stand; `repaired`
 * (Codex) the calls an interrupted turn left without output, each now answered "aborted" as
 * Codex answers it, and outputs without a call, dropped. docs/agent-logs.md has the rules.
 * Throws MidfoldError 'unknown-format' for text that is neither log, 'parse-error' (position:
 * where the line starts) for a line that is not JSON before the last.
 * Ownership: reads `text`; the result is new (message objects come from the lines' JSON).
 * @param {string} text the log's contents
 */
export function readAgentLog(text) {
  if (typeof text !== 'string') throw new MidfoldError('invalid-input', 'readAgentLog: the log must be a string');
  const { lines, incomplete } = jsonLines(text);
  const format = formatOf(lines);
  if (!format) throw new MidfoldError('unknown-format', 'not a Claude Code session log or a Codex CLI rollout (JSON Lines)');
  const read = format === 'claude-code' ? { ...readClaudeCode(lines), repaired: [] } : readCodex(lines);
  if (incomplete) read.skipped['incomplete-line'] = incomplete;
  return { format, ...read };
}
