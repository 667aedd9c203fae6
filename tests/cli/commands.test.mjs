// The CLI (`midfold <command> FILE`): output, exit codes, stdin, and a model summarizer
// reached over real HTTP on 127.0.0.1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, estimateTokens, serialize } from '../../js/hosts/node.js';
import { startMockLLM } from '../helpers/mock-llm.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const SESSION = fileURLToPath(new URL('../fixtures/coding-session.anthropic.json', import.meta.url));
const OPENAI = fileURLToPath(new URL('../fixtures/coding-session.openai.json', import.meta.url));

/** Runs the CLI; resolves {code, stdout, stderr}. Only loopback variables are passed on. */
function run(args, { input, env = {} } = {}) {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH, ...env }, maxBuffer: 64 << 20,
    }, (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
  });
}

await init();
const session = JSON.parse(await readFile(SESSION, 'utf8'));

test('estimate prints the same whole number as estimateTokens in the Compactor\'s profile (safe), with its unit and profile', async () => {
  const r = await run(['estimate', SESSION]);
  assert.equal(r.code, 0);
  assert.equal(r.stdout, `${estimateTokens(session, { profile: 'safe' })} tokens (safe profile)\n`);
});

test('estimate --json lists one figure per message, and names the profile', async () => {
  const r = await run(['estimate', OPENAI, '--json']);
  const out = JSON.parse(r.stdout);
  const messages = JSON.parse(await readFile(OPENAI, 'utf8'));
  assert.equal(out.format, 'openai');
  assert.equal(out.profile, 'safe');
  assert.equal(out.tokens, estimateTokens(messages, { profile: 'safe' }));
  assert.equal(out.messages.length, messages.length);
  assert.deepEqual(out.messages, messages.map((m) => estimateTokens(m, { profile: 'safe' })));
});

test('estimate --profile P prints estimateTokens with that profile; without it, the Compactor\'s (safe)', async () => {
  for (const profile of ['safe', 'o200k', 'bareagent']) {
    const r = await run(['estimate', SESSION, '--profile', profile]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), `${estimateTokens(session, { profile })} tokens (${profile} profile)`, profile);
  }
  assert.equal(parseInt((await run(['estimate', SESSION])).stdout, 10), estimateTokens(session, { profile: 'safe' }));
  const json = JSON.parse((await run(['estimate', OPENAI, '--json', '--profile', 'safe'])).stdout);
  const messages = JSON.parse(await readFile(OPENAI, 'utf8'));
  assert.deepEqual(json.messages, messages.map((m) => estimateTokens(m, { profile: 'safe' })));
});

test('serialize prints the transcript serialize() gives', async () => {
  const r = await run(['serialize', SESSION]);
  assert.equal(r.stdout, serialize(session) + '\n');
});

test('"-" reads the conversation from stdin, also as an object with messages', async () => {
  const r = await run(['estimate', '-'], { input: JSON.stringify({ model: 'x', messages: session }) });
  assert.equal(r.code, 0);
  assert.equal(parseInt(r.stdout, 10), estimateTokens({ model: 'x', messages: session }, { profile: 'safe' }));
});

test('micro -o writes the micro-compacted conversation and reports what it cleared', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'midfold-cli-'));
  try {
    const out = join(dir, 'out.json');
    const r = await run(['micro', SESSION, '--keep-recent', '1', '-o', out]);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^midfold: micro-compaction: cleared \d+ tool results/);
    const written = JSON.parse(await readFile(out, 'utf8'));
    assert.equal(written.length, session.length);
    assert.ok(JSON.stringify(written).includes('[truncated: '));
    assert.ok(estimateTokens(written) < estimateTokens(session));
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('compact --force without a model folds the middle with the offline digest', async () => {
  const r = await run(['compact', SESSION, '--force', '--keep-tail', '0', '--json']);
  assert.equal(r.code, 0);
  const { report, messages } = JSON.parse(r.stdout);
  assert.equal(report.compacted, true);
  assert.match(messages[0].content, /^\[Context Compressed\]\nDigest of \d+ earlier messages/);
  assert.deepEqual(messages.at(-1), session.at(-1));
});

test('compact --force on a conversation the default tail budget holds whole once micro-compacted (the README\'s /compact) folds its older part and exits 0', async () => {
  const r = await run(['compact', SESSION, '--force', '--json']);
  assert.equal(r.code, 0);
  const { report, messages } = JSON.parse(r.stdout);
  assert.equal(report.compacted, true);
  assert.equal(report.tailShrunk, true);
  assert.ok(messages.length < session.length);
  assert.deepEqual(messages.at(-1), session.at(-1));
  const text = await run(['compact', SESSION, '--force']);
  assert.equal(text.code, 0);
  assert.match(text.stderr, /the tail was cut to half/);
});

test('micro --profile: the figures are in that profile\'s tokens (default: the Compactor\'s, safe)', async () => {
  const safe = JSON.parse((await run(['micro', SESSION, '--profile', 'safe', '--json'])).stdout);
  assert.equal(safe.report.tokensBefore, estimateTokens(session, { profile: 'safe' }));
  assert.equal(safe.report.tokensAfter, estimateTokens(safe.messages, { profile: 'safe' }));
  const plain = JSON.parse((await run(['micro', SESSION, '--json'])).stdout);
  assert.equal(plain.report.tokensBefore, estimateTokens(session, { profile: 'safe' }));
  assert.equal(plain.profile, 'safe');
  const reference = JSON.parse((await run(['micro', SESSION, '--json', '--profile', 'bareagent'])).stdout);
  assert.equal(reference.report.tokensBefore, estimateTokens(session, { profile: 'bareagent' }));
  assert.match((await run(['micro', SESSION])).stderr, /tokens \(safe profile\)$/m);
});

test("compact uses the Compactor's default profile ('safe') for its figures and threshold; --profile changes it", async () => {
  const safe = estimateTokens(session, { profile: 'safe' });
  const reference = estimateTokens(session, { profile: 'bareagent' });
  assert.ok(reference < safe);
  const byDefault = JSON.parse((await run(['compact', SESSION, '--json', '--threshold', '1000000'])).stdout);
  assert.equal(byDefault.report.tokensBefore, safe);
  const byFlag = JSON.parse((await run(['compact', SESSION, '--json', '--threshold', '1000000', '--profile', 'bareagent'])).stdout);
  assert.equal(byFlag.report.tokensBefore, reference);
  // A threshold between the two estimates (no micro-compaction: --keep-recent 100): only the default compacts.
  const threshold = String(reference);
  const over = JSON.parse((await run(['compact', SESSION, '--json', '--keep-recent', '100', '--threshold', threshold])).stdout);
  const under = JSON.parse((await run(['compact', SESSION, '--json', '--keep-recent', '100', '--threshold', threshold, '--profile', 'bareagent'])).stdout);
  assert.equal(over.report.compacted, true);
  assert.equal(under.report.reason, 'below-threshold');
  assert.match((await run(['compact', SESSION])).stderr, /tokens \(safe profile\)$/m);
});

test('compact with a base URL in the environment asks that model over HTTP', async () => {
  const llm = await startMockLLM();
  try {
    llm.respondWith({ text: 'The date helper broke with date-fns-tz 3; fixed by renaming the import.' });
    const r = await run(['compact', SESSION, '--force', '--keep-tail', '0', '--model', 'summarizer-1'], {
      env: { MIDFOLD_BASE_URL: `${llm.url}/v1`, MIDFOLD_API_KEY: 'test-key' },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /fixed by renaming the import/);
    assert.equal(llm.requests.length, 1);
    assert.equal(llm.requests[0].path, '/v1/chat/completions');
    assert.equal(llm.requests[0].body.model, 'summarizer-1');
    assert.equal(llm.requests[0].headers.authorization, 'Bearer test-key');
  } finally {
    await llm.close();
  }
});

test('compact --force exits 1 and says why when the model fails; the input file is untouched', async () => {
  const llm = await startMockLLM();
  try {
    llm.respondWith({ status: 500 });
    const before = await readFile(SESSION, 'utf8');
    const r = await run(['compact', SESSION, '--force', '--keep-tail', '0', '--summarizer', 'openai', '--base-url', `${llm.url}/v1`, '--model', 'm']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /compaction: not done \(summarizer-error\)/);
    assert.match(r.stderr, /HTTP 500/);
    assert.equal(await readFile(SESSION, 'utf8'), before);
  } finally {
    await llm.close();
  }
});

test('validate exits 0 on a valid conversation and 1, listing problems, on a broken one', async () => {
  assert.equal((await run(['validate', SESSION])).code, 0);
  const dir = await mkdtemp(join(tmpdir(), 'midfold-cli-'));
  try {
    const broken = join(dir, 'broken.json');
    await writeFile(broken, JSON.stringify(session.slice(0, 2).concat(session.slice(3))));
    const r = await run(['validate', broken]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /message \d+, part \d+: (call-without-result|result-without-call)/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('validate exits 0 on a conversation with only warnings, and prints them', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'midfold-cli-'));
  try {
    const file = join(dir, 'future-block.json');
    await writeFile(file, JSON.stringify([{ role: 'user', content: [{ type: 'text', text: 'What changed?', cache_control: { type: 'ephemeral' } },
      { type: 'release_notes', title: 'v2.4', body: 'Faster cold starts.' }] }]));
    const r = await run(['validate', file]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^ok \(anthropic\)\nmessage 0, part 1: warning: unknown-block: block type "release_notes"/);
  } finally {
    await rm(dir, { recursive: true });
  }
});

test('a Responses API body ({model, instructions, input}) is read from its input and written back there', async () => {
  const { agentRun } = await import('../fixtures/responses/agent-run.mjs');
  const body = { model: 'gpt-5.4', instructions: 'Investigate before changing anything.', store: false, input: agentRun() };
  const dir = await mkdtemp(join(tmpdir(), 'midfold-cli-'));
  try {
    const file = join(dir, 'request.json');
    await writeFile(file, JSON.stringify(body));
    const estimated = await run(['estimate', file]);
    assert.equal(estimated.code, 0, estimated.stderr);
    assert.equal(parseInt(estimated.stdout, 10), estimateTokens(body, { profile: 'safe' }));
    const out = join(dir, 'compacted.json');
    const compacted = await run(['compact', file, '--force', '--output', out]);
    assert.equal(compacted.code, 0, compacted.stderr);
    const written = JSON.parse(await readFile(out, 'utf8'));
    assert.deepEqual(Object.keys(written), ['model', 'instructions', 'store', 'input']);
    assert.ok(written.input.length < body.input.length);
    assert.deepEqual(written.input.at(-1), body.input.at(-1));
    // The simulator prices the instructions as the fixed start of every request.
    const simulated = await run(['simulate', file, '--pricing', 'openai', '--policy', 'none', '--json']);
    assert.equal(simulated.code, 0, simulated.stderr);
    const [none] = JSON.parse(simulated.stdout).results;
    const [bare] = JSON.parse((await run(['simulate', '-', '--pricing', 'openai', '--policy', 'none', '--json'], { input: JSON.stringify(body.input) })).stdout).results;
    assert.equal(none.perTurn.length, bare.perTurn.length);
    assert.equal(none.perTurn[0].context - bare.perTurn[0].context, estimateTokens(body.instructions, { profile: 'safe' }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('bad input exits 2 with one line naming the problem', async () => {
  for (const [args, input, pattern] of [
    [['estimate', '-'], '[{"role": "user",', /^midfold: stdin is not valid JSON/],
    [['estimate', '-'], '{"hello": 1}', /^midfold: expected a JSON array of messages, an object with "messages", a Responses body with "input", or a Claude Code or Codex CLI log/],
    [['estimate', '/nonexistent/conversation.json'], undefined, /^midfold: cannot read \/nonexistent\/conversation.json: ENOENT/],
    [['frobnicate', SESSION], undefined, /^midfold: unknown command "frobnicate"/],
    [['micro', SESSION, '--keep-recent', 'three'], undefined, /^midfold: --keep-recent must be a whole number/],
    [['estimate', SESSION, '--profile', 'nope'], undefined, /^midfold: invalid-option: unknown profile "nope"/],
    [['compact', SESSION, '--profile', 'nope'], undefined, /^midfold: invalid-option: unknown profile "nope"; known: .*\bsafe\b/],
    [['estimate'], undefined, /^midfold: estimate needs a FILE/],
  ]) {
    const r = await run(args, { input });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, pattern);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

test('--help documents every command', async () => {
  const r = await run(['--help']);
  assert.equal(r.code, 0);
  for (const c of ['estimate', 'serialize', 'micro', 'compact', 'validate']) assert.match(r.stdout, new RegExp(`^  ${c} `, 'm'));
});

test('--help names every profile and one default for every command, the Compactor\'s (safe)', async () => {
  for (const args of [['--help'], ['estimate', '--help'], ['simulate', '--help']]) {
    const { stdout } = await run(args);
    const option = stdout.slice(stdout.indexOf('--profile P'), stdout.indexOf('\n  -', stdout.indexOf('--profile P') + 1));
    for (const p of ['bareagent', 'o200k', 'cl100k', 'deepseek', 'qwen', 'claude', 'safe']) assert.match(option, new RegExp(`\\b${p}\\b`), p);
    assert.match(option.replace(/\s+/g, ' '), /safe \(the default of every command, the Compactor's\)/, args.join(' '));
  }
});

test('a flag the command does not read is a usage error (exit 2), not ignored', async () => {
  for (const [args, flag] of [[['estimate', SESSION, '--keep-recent', '5'], 'keep-recent'], [['serialize', SESSION, '--json'], 'json'],
    [['micro', SESSION, '--threshold', '1000'], 'threshold'], [['simulate', SESSION, '--keep-tail', '2000'], 'keep-tail']]) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, new RegExp(`--${flag} does not apply to ${args[0]}`));
    assert.equal(r.stdout, '');
  }
});

test('compact --exclude-tools keeps those tools\' results, as micro does (it was ignored)', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'midfold-cli-'));
  try {
    const out = join(dir, 'out.json');
    const r = await run(['compact', SESSION, '--force', '--keep-tail', '200', '--exclude-tools', 'bash', '-o', out, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const { report } = JSON.parse(r.stdout);
    assert.ok(report.micro.edits.length > 0, 'other results were cleared');
    assert.ok(report.micro.edits.every((e) => e.tool !== 'bash'), JSON.stringify(report.micro.edits));
    const plain = await run(['compact', SESSION, '--force', '--keep-tail', '200', '--json']);
    assert.ok(JSON.parse(plain.stdout).report.micro.edits.some((e) => e.tool === 'bash'), 'without the flag a bash result is cleared');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
