// `midfold micro FILE --recall` and `midfold compact FILE --recall` archive what they clear or fold in files
// beside FILE (or in --archive DIR), and `midfold recall FILE ID` prints it back: exit 1, with the reason on
// stderr, for an id the archive does not hold or a page past the end; 2 for a usage mistake.
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFixture } from '../helpers/fixtures.mjs';

const CLI = fileURLToPath(new URL('../../js/cli.js', import.meta.url));
const dir = await mkdtemp(join(tmpdir(), 'midfold-recall-cli-'));
after(() => rm(dir, { recursive: true, force: true }));

async function midfold(...args) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { cwd: dir, timeout: 60000 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('micro --recall, then recall FILE ID: the cleared result back; unknown ids and pages are exit 1', async () => {
  const session = join(dir, 'session.json');
  const original = loadFixture('chinese-coding.anthropic');
  await writeFile(session, JSON.stringify(original));
  const micro = await midfold('micro', session, '--recall', '--keep-recent', '0', '-o', join(dir, 'out.json'));
  assert.equal(micro.code, 0, micro.stderr);
  const out = await readFile(join(dir, 'out.json'), 'utf8');
  const ids = [...out.matchAll(/· recall (r[0-9a-z]{8})\]/g)].map((m) => m[1]);
  assert.ok(ids.length >= 2);
  const first = original.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool_result');
  const back = await midfold('recall', session, ids[0]);
  assert.equal(back.code, 0, back.stderr);
  assert.match(back.stdout, /^recall r[0-9a-z]{8} · \w+ result, \d+ chars · page 1 of 1\n/);
  assert.ok(back.stdout.includes(typeof first.content === 'string' ? first.content.split('\n')[0] : first.content[0].text.split('\n')[0]));
  const unknown = await midfold('recall', session, 'r00000000');
  assert.equal(unknown.code, 1);
  assert.equal(unknown.stdout, '');
  assert.match(unknown.stderr, /nothing is archived under r00000000/);
  const past = await midfold('recall', session, ids[0], '--page', '5');
  assert.equal(past.code, 1);
  assert.match(past.stderr, /page 5 is past the end/);
  assert.equal((await midfold('recall', session)).code, 2);
  assert.equal((await midfold('micro', session, '--archive', dir)).code, 2); // --archive without --recall
});

test('compact --recall --force: the summary names the folded range, which recall prints as its transcript', async () => {
  const session = join(dir, 'coding.json');
  await writeFile(session, JSON.stringify(loadFixture('coding-session.openai')));
  const archive = join(dir, 'archive');
  const run = await midfold('compact', session, '--recall', '--archive', archive, '--force', '-o', join(dir, 'folded.json'));
  assert.equal(run.code, 0, run.stderr);
  const folded = await readFile(join(dir, 'folded.json'), 'utf8');
  const id = folded.match(/\[recall (r[0-9a-z]{8}): the \d+ messages? this summary replaces/)[1];
  const back = await midfold('recall', session, id, '--archive', archive);
  assert.equal(back.code, 0, back.stderr);
  assert.match(back.stdout, /folded range of \d+ messages · page 1 of \d+/);
  assert.match(back.stdout, /\n\[user\]\n/);
});
