/**
 * sessions.mjs — long agent sessions for the cost simulator (node tests/bench/simulate.mjs):
 * a system prompt, a task, then one tool call and its result a turn (results 0.8–13 KB unless
 * `resultBytes` says otherwise: file reads, grep, test runs, git log, listings; a fifth of the
 * reads carry Chinese comments), a short remark from the assistant now and then, and a closing
 * answer.
 * Seeded: the same turns and seed give the same session, byte for byte.
 */
import { rng, pickFrom, intIn, randStr, proseSentence, zhSentence, codeLine, catOutput, grepOutput, testOutput,
  gitLogOutput, lsOutput } from './lib.mjs';

const FILES = ['src/estimate.c', 'src/micro.c', 'src/serialize.c', 'js/core.js', 'js/compactor.js', 'tests/core/micro.test.mjs',
  'src/view.c', 'js/encode.js', 'README.md', 'src/compact.c'];
const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function exchange(r, [least, most]) {
  const size = intIn(r, least, most);
  const file = pickFrom(r, FILES);
  const kind = pickFrom(r, ['read', 'read', 'grep', 'test', 'test', 'log', 'ls']);
  switch (kind) {
    case 'read': return { name: 'read_file', input: { path: file }, output: catOutput(r, size, r() < 0.2) };
    case 'grep': return { name: 'grep', input: { pattern: codeLine(r).split(' ')[0].replace(/\W/g, '') || 'mf_', path: 'src', '-n': true }, output: grepOutput(r, size) };
    case 'test': return { name: 'bash', input: { command: 'npm test 2>&1 | tail -n 200' }, output: testOutput(r, size) };
    case 'log': return { name: 'bash', input: { command: `git log -n ${intIn(r, 5, 40)} -- ${file}` }, output: gitLogOutput(r, size) };
    default: return { name: 'bash', input: { command: `ls -la ${pickFrom(r, ['src', 'js', 'tests', '.'])}` }, output: lsOutput(r, size) };
  }
}

/**
 * An Anthropic-format session of `turns` model calls with a tool each (plus the closing
 * answer): [system, user task, (assistant tool_use, user tool_result) × turns, assistant].
 * `resultBytes`: the least and most bytes of a tool result (uniform).
 */
export function agentSession(turns, seed = 1, { resultBytes = [800, 13000] } = {}) {
  const r = rng(seed * 7919 + turns);
  const messages = [
    { role: 'system', content: 'You are a coding agent working in the repository /home/dev/midfold. Use the tools to read, search and run commands; run the tests after every edit.' },
    { role: 'user', content: r() < 0.7 ? `The micro-compaction tests fail since the last merge. ${proseSentence(r)} Find out why and fix it.` : `合并之后微压缩的测试失败了。${zhSentence(r)}请找出原因并修复。` },
  ];
  for (let t = 0; t < turns; t++) {
    const call = exchange(r, resultBytes);
    const id = `toolu_01${randStr(r, B62, 22)}`;
    const content = [];
    if (r() < 0.5) content.push({ type: 'text', text: proseSentence(r) });
    content.push({ type: 'tool_use', id, name: call.name, input: call.input });
    messages.push({ role: 'assistant', content });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: call.output }] });
  }
  messages.push({ role: 'assistant', content: [{ type: 'text', text: `${proseSentence(r)} ${proseSentence(r)}` }] });
  return JSON.parse(JSON.stringify(messages));
}
