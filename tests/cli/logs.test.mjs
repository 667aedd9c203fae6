// Agent logs through every command of the real CLI (pinned Node): a Claude Code session and a
// Codex CLI rollout, given as they lie on disk (any file name, or stdin), read as the
// conversation they record — the same figures, transcript and edits as that conversation
// given as JSON — and `convert` writes that conversation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, estimateTokens, serialize, simulate, readAgentLog } from '../../js/hosts/node.js';
import { claudeCodeLog, codexLog } from '../fixtures/logs/build.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));

function run(args, { input } = {}) {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
  });
}

let dir;
const logs = {};
before(async () => {
  await init();
  dir = await mkdtemp(join(tmpdir(), 'midfold-cli-logs-'));
  // Names that say nothing of the format: it is told by content.
  for (const [name, text] of [['claude', claudeCodeLog()], ['codex', codexLog()]]) {
    const file = join(dir, `${name}-export.txt`);
    await writeFile(file, text);
    const json = join(dir, `${name}.json`);
    const { messages } = readAgentLog(text);
    await writeFile(json, JSON.stringify(messages));
    logs[name] = { file, json, text, messages };
  }
});
after(() => rm(dir, { recursive: true, force: true }));

for (const name of ['claude', 'codex']) {
  test(`${name}: estimate, serialize and validate read the log as the conversation it holds`, async () => {
    const { file, json, messages } = logs[name];
    const fromLog = await run(['estimate', file, '--json', '--profile', 'o200k']);
    assert.equal(fromLog.code, 0, fromLog.stderr);
    assert.deepEqual(JSON.parse(fromLog.stdout), JSON.parse((await run(['estimate', json, '--json', '--profile', 'o200k'])).stdout));
    assert.equal(JSON.parse(fromLog.stdout).tokens, estimateTokens(messages, { profile: 'o200k' }));
    const transcript = await run(['serialize', file]);
    assert.equal(transcript.stdout, serialize(messages) + '\n');
    const valid = await run(['validate', file]);
    assert.equal(valid.code, 0, valid.stdout);
    assert.match(valid.stdout, new RegExp(`^ok \\(${name === 'claude' ? 'anthropic' : 'openai-responses'}\\)`));
  });

  test(`${name}: micro and compact write back the plain conversation, as they do for its JSON`, async () => {
    const { file, json } = logs[name];
    for (const args of [['micro', '--keep-recent', '2'], ['compact', '--force', '--keep-tail', '3000']]) {
      const fromLog = await run([args[0], file, ...args.slice(1), '-o', '-']);
      assert.equal(fromLog.code, 0, fromLog.stderr);
      const fromJson = await run([args[0], json, ...args.slice(1), '-o', '-']);
      assert.deepEqual(JSON.parse(fromLog.stdout), JSON.parse(fromJson.stdout), args[0]);
      assert.ok(Array.isArray(JSON.parse(fromLog.stdout)));
    }
  });

  test(`${name}: convert writes the plain array; stderr says what the log was and what was left out`, async () => {
    const { file, messages } = logs[name];
    const out = join(dir, `${name}-converted.json`);
    const r = await run(['convert', file, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(await readFile(out, 'utf8')), messages);
    assert.equal(r.stdout, '');
    const note = r.stderr.trim().split('\n');
    assert.equal(note.length, 1, r.stderr);
    if (name === 'claude') assert.match(note[0], /^midfold: .*claude-export\.txt: Claude Code session log, \d+ messages \(anthropic\); left out: .*\b6 sidechain\b.*; 1 compaction summary kept where it stands$/);
    else assert.match(note[0], /^midfold: .*codex-export\.txt: Codex CLI rollout, \d+ messages \(openai-responses\); left out: \d+ event_msg, 60 turn_context, 1 session_meta; 1 compaction summary kept where it stands; 1 call an interrupted turn left without output answered "aborted", as Codex does \(shell call_\w+\)$/);
    // Into a pipe without -o, and from stdin.
    const piped = await run(['convert', '-'], { input: logs[name].text });
    assert.deepEqual(JSON.parse(piped.stdout), messages);
  });

  test(`${name}: simulate prices the log's turns at the times they were written`, async () => {
    const { file, text } = logs[name];
    const r = await run(['simulate', file, '--json', '--policy', 'none', '--policy', 'micro-batched', '--profile', 'o200k']);
    assert.equal(r.code, 0, r.stderr);
    const { messages, times } = readAgentLog(text);
    const timed = messages.map((m, i) => ({ ...m, timestamp: times[i] }));
    const expected = await simulate(timed, { policies: ['none', 'micro-batched'], profile: 'o200k' });
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(expected)));
    // Minutes pass between some turns of the log: the cache expires there, as it did.
    const [none] = expected.results;
    assert.ok(none.perTurn.some((p, i) => i > 0 && p.read === 0 && p.written > 0), 'a turn after a pause writes the cache again');
  });
}

test('a log with a bad line before its last is bad input naming the line; a cut-short last line is left out', async () => {
  const lines = logs.claude.text.split('\n');
  const broken = lines.slice();
  broken[100] = broken[100].slice(0, 40);
  const r = await run(['estimate', '-'], { input: broken.join('\n') });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^midfold: stdin: Claude Code session log: line 101 is not JSON/);
  assert.equal(r.stderr.trim().split('\n').length, 1);
  const cut = await run(['estimate', '-', '--json'], { input: logs.claude.text.slice(0, -300) });
  assert.equal(cut.code, 0, cut.stderr);
  assert.match(cut.stderr, /left out: .*1 incomplete-line/);
});
