// The CLI as Unix users expect it, each fact through the real CLI on the pinned Node: the
// resulting conversation on stdout (with -o -, or into a pipe), reports on stderr, a reader
// that stops early (| head -1) ends it quietly, --version, "did you mean" for a typo, help per
// command, units and profile on every figure, a list of non-messages refused, progress.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, estimateTokens, microCompact } from '../../js/hosts/node.js';
import { progressLine } from '../../js/cli/progress.js';
import { agentSession } from '../bench/sessions.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const SESSION = fileURLToPath(new URL('../fixtures/coding-session.anthropic.json', import.meta.url));
const VERSION = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')).version;

/** Runs the CLI with stdout and stderr as pipes; resolves {code, stdout, stderr}. */
function run(args, { input } = {}) {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? error.code : 0, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
  });
}

let dir, big;
const session = JSON.parse(await readFile(SESSION, 'utf8'));
before(async () => {
  await init();
  dir = await mkdtemp(join(tmpdir(), 'midfold-cli-unix-'));
  big = join(dir, 'long-session.json');
  await writeFile(big, JSON.stringify(agentSession(300, 4)));
});
after(() => rm(dir, { recursive: true, force: true }));

describe('the conversation on stdout, reports on stderr', () => {
  test('micro -o - writes the micro-compacted conversation to stdout and the report to stderr (not a file named "-")', async () => {
    const r = await run(['micro', SESSION, '--keep-recent', '1', '-o', '-'], {});
    assert.equal(r.code, 0, r.stderr);
    const expected = structuredClone(session);
    microCompact(expected, { keepRecent: 1, profile: 'safe' });
    assert.deepEqual(JSON.parse(r.stdout), expected);
    assert.match(r.stderr, /^midfold: micro-compaction: cleared \d+ tool results/m);
  });

  test('compact into a pipe without -o: stdout is the compacted conversation, stderr says what happened', async () => {
    const r = await run(['compact', SESSION, '--force', '--keep-tail', '0']);
    assert.equal(r.code, 0, r.stderr);
    const messages = JSON.parse(r.stdout);
    assert.match(messages[0].content, /^\[Context Compressed\]/);
    assert.deepEqual(messages.at(-1), session.at(-1));
    assert.match(r.stderr, /compaction: folded \d+ messages into a summary/);
  });

  test('-o FILE keeps stdout empty; --json with -o - is refused (both would be stdout)', async () => {
    const out = join(dir, 'micro.json');
    const r = await run(['micro', SESSION, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    assert.equal(JSON.parse(await readFile(out, 'utf8')).length, session.length);
    const both = await run(['compact', SESSION, '--json', '-o', '-']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /^midfold: --json and -o - would both write stdout/);
  });

  test('a reader that stops early (serialize | head -1) ends the CLI quietly: no stack trace, exit 0', async () => {
    const r = await new Promise((resolve) => {
      const child = spawn('bash', ['--norc', '--noprofile', '-c', `set -o pipefail; "${process.execPath}" "${CLI}" serialize "${big}" | head -1`], { env: { PATH: process.env.PATH } });
      let stdout = '', stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    assert.equal(r.stdout, '[system]\n');
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
  });
});

describe('flags, commands and help', () => {
  test('--version prints the package\'s version', async () => {
    const r = await run(['--version']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `midfold ${VERSION}\n`);
  });

  test('a mistyped option or command names the nearest one, in one line, never the parser\'s own text', async () => {
    for (const [args, pattern] of [
      [['micro', SESSION, '--keep-recnt', '2'], /^midfold: unknown option --keep-recnt; did you mean --keep-recent\?$/],
      [['compact', SESSION, '--trheshold', '9000'], /^midfold: unknown option --trheshold; did you mean --threshold\?$/],
      [['compact', SESSION, '--frce'], /^midfold: unknown option --frce; did you mean --force\?$/],
      [['comapct', SESSION], /^midfold: unknown command "comapct"; did you mean compact\?/],
      [['estimate', SESSION, '--quantum'], /^midfold: unknown option --quantum$/],
      [['estimate', SESSION, '--profile'], /^midfold: --profile needs a value/],
      [['estimate', SESSION, '--json=yes'], /^midfold: --json takes no value/],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr.trimEnd(), pattern);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.doesNotMatch(r.stderr, /To specify a positional argument|ERR_PARSE_ARGS/);
    }
  });

  test('COMMAND --help (and help COMMAND) lists that command\'s options only', async () => {
    for (const args of [['micro', '--help'], ['help', 'micro'], ['micro', '-h']]) {
      const r = await run(args);
      assert.equal(r.code, 0, args.join(' '));
      assert.match(r.stdout, /^Usage: midfold micro /);
      assert.match(r.stdout, /--keep-recent N/);
      assert.doesNotMatch(r.stdout, /--threshold|--ttl/);
    }
    const simulate = (await run(['simulate', '--help'])).stdout;
    assert.match(simulate, /--policy SPEC/);
    assert.doesNotMatch(simulate, /--keep-tail/);
  });

  test('the help states how far an estimate may be off, and where that was measured', async () => {
    for (const args of [['--help'], ['estimate', '--help']]) {
      const { stdout } = await run(args);
      const line = stdout.replace(/\s+/g, ' ').match(/Estimates err high: the safe profile counts about ([\d.]+)x what OpenAI's o200k tokenizer counts, and no long text measured under it \(docs\/estimator\.md/);
      assert.ok(line, 'the margin line');
      // The figure is the one docs/estimator.md measured (its table's safe row against o200k, never under).
      const docs = readFileSync(new URL('../../docs/estimator.md', import.meta.url), 'utf8');
      const measured = docs.match(/\| `safe` \(the Compactor's default\) \| ([\d.]+)× \(never under\)/);
      assert.ok(measured, 'docs/estimator.md measures the safe profile');
      assert.equal(Number(line[1]).toFixed(1), Number(measured[1]).toFixed(1));
    }
  });
});

describe('figures and input', () => {
  test('estimate prints its unit and its profile; --json keeps "tokens" and adds "profile"', async () => {
    const r = await run(['estimate', SESSION, '--profile', 'o200k']);
    assert.equal(r.stdout, `${estimateTokens(session, { profile: 'o200k' })} tokens (o200k profile)\n`);
    const json = JSON.parse((await run(['estimate', SESSION, '--json', '--profile', 'o200k'])).stdout);
    assert.equal(json.tokens, estimateTokens(session, { profile: 'o200k' }));
    assert.equal(json.profile, 'o200k');
  });

  test('a list that is not a conversation ([1, 2, 3]) is bad input (exit 2) for every command, named as validate names it', async () => {
    for (const command of ['estimate', 'serialize', 'micro', 'compact', 'simulate', 'convert']) {
      const r = await run([command, '-'], { input: '[1, 2, 3]' });
      assert.equal(r.code, 2, command);
      assert.match(r.stderr, /^midfold: message 0: not-a-message: not an object with a string "role"/, command);
      assert.equal(r.stdout, '', command);
    }
    const v = await run(['validate', '-'], { input: '[1, 2, 3]' });
    assert.equal(v.code, 1);
    assert.match(v.stdout, /^message 0: not-a-message/);
  });
});

describe('progress', () => {
  test('simulate --progress reports each policy\'s turns on stderr, the last turn always; stdout is the table alone', async () => {
    const r = await run(['simulate', big, '--policy', 'none', '--policy', 'micro-batched', '--progress']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.ok(lines.every((l) => /^midfold: simulate: (no management|microCompact at 60k.*) \(policy [12]\/2\), turn \d+\/301$/.test(l)), r.stderr);
    assert.match(lines.at(-1), /policy 2\/2\), turn 301\/301$/);
    assert.doesNotMatch(r.stdout, /midfold: simulate/);
    const quiet = await run(['simulate', big, '--policy', 'none']);
    assert.equal(quiet.stderr, '', 'a pipe gets no progress unless asked');
  });

  test('compact --progress says what it waits for, and for how long', async () => {
    const r = await run(['compact', SESSION, '--force', '--progress', '-o', join(dir, 'compacted.json')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`^midfold: compact: ${session.length} messages, \\d+ s\n`));
  });

  test('on a terminal, progress shows once the work has taken a second, on one line rewritten, cleared at the end', () => {
    let t = 0;
    const written = [];
    const line = progressLine({ stream: { isTTY: true, write: (s) => written.push(s) }, now: () => t });
    line.update('simulate: turn 1/900');
    t = 900; line.update('simulate: turn 400/900');
    assert.deepEqual(written, [], 'nothing in the first second');
    t = 1200; line.update('simulate: turn 600/900');
    t = 1250; line.update('simulate: turn 610/900'); // (a tenth of a second between redraws)
    t = 1400; line.update('simulate: turn 700/900');
    line.done();
    assert.deepEqual(written, ['\r\x1b[Kmidfold: simulate: turn 600/900', '\r\x1b[Kmidfold: simulate: turn 700/900', '\r\x1b[K']);
    const quick = [];
    const fast = progressLine({ stream: { isTTY: true, write: (s) => quick.push(s) }, now: () => 10 });
    fast.update('estimate'); fast.done();
    assert.deepEqual(quick, [], 'work under a second shows nothing');
  });
});
