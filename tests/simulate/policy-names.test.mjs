// Policy names: 'every-turn' (micro-compaction on every call) is the name everywhere a policy is
// named — the Compactor's `policy`, simulate()'s policy names and the CLI's --policy. 'seed', its
// former name, still runs it for one minor version and says so once per process: through the
// Compactor's onWarn when there is one, else as Node's DeprecationWarning. Each case runs in a
// process of its own, since the announcement is once per process.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentSession } from '../bench/sessions.mjs';

const ENTRY = new URL('../../js/hosts/node.js', import.meta.url).href;
const CLI = new URL('../../js/cli.js', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'midfold-policy-names-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));

// Coding sessions (file reads, greps, test runs; a fifth of the reads with Chinese comments): 30 turns for
// the simulator, 10 (about 34,000 tokens, below the Compactor's default microTrigger) for the Compactor.
const SESSION = join(dir, 'session.json');
writeFileSync(SESSION, JSON.stringify(agentSession(30, 2)));
const SHORT = join(dir, 'short.json');
writeFileSync(SHORT, JSON.stringify(agentSession(10, 2)));

/** Runs `body` as an ES module after `import * as midfold`; resolves {out (JSON of its last line), stderr}. */
function script(body, sessionFile = SESSION) {
  const file = join(dir, `case-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(file, `import * as midfold from ${JSON.stringify(ENTRY)};
import { readFileSync } from 'node:fs';
const session = JSON.parse(readFileSync(${JSON.stringify(sessionFile)}, 'utf8'));
const warnings = [];
process.on('warning', (w) => warnings.push({ name: w.name, code: w.code, message: w.message }));
await midfold.init();
${body}
`);
  const r = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 120000 });
  assert.equal(r.status, 0, r.stderr);
  return { out: JSON.parse(r.stdout.trim().split('\n').at(-1)), stderr: r.stderr };
}

const SEED_WARNING = { name: 'DeprecationWarning', code: 'MIDFOLD_SEED_POLICY',
  message: "midfold: the policy name 'seed' is deprecated and will be removed in the next minor version; use 'every-turn' (the same policy)" };

test("simulate: 'every-turn' is a policy name and one of the defaults; 'seed' bills exactly what it bills and is announced once", () => {
  const { out } = script(`
const everyTurn = await midfold.simulate(session, { policies: ['every-turn'] });
const seed = await midfold.simulate(session, { policies: ['seed', 'seed'] });
const again = await midfold.simulate(session, { policies: ['seed'] });
const defaults = await midfold.simulate(session, { pricing: 'openai' });
await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
console.log(JSON.stringify({ everyTurn: everyTurn.results, seed: seed.results, again: again.results,
  defaults: defaults.results.map((r) => r.name), warnings }));
`);
  assert.deepEqual(out.defaults, ['none', 'every-turn', 'context-editing', 'micro-batched', 'defaults']);
  const [e] = out.everyTurn;
  assert.equal(e.name, 'every-turn');
  assert.match(e.label, /^every turn/);
  assert.ok(e.summaries + e.perTurn.filter((t, i, all) => i > 0 && t.context < all[i - 1].context).length > 0,
    'the policy manages the session (it clears or folds)');
  for (const r of [...out.seed, ...out.again]) {
    assert.equal(r.name, 'seed', "the result keeps the name it was asked by");
    assert.deepEqual({ ...r, name: 'every-turn' }, e, "'seed' is the same policy");
  }
  assert.deepEqual(out.warnings, [SEED_WARNING], 'one DeprecationWarning for three uses');
});

test("Compactor: policy 'seed' clears on every call as 'every-turn' does, and tells the first onWarn once", () => {
  const { out } = script(`
const told = [];
const run = async (policy, onWarn) => {
  const messages = structuredClone(session);
  const report = await new midfold.Compactor({ summarize: midfold.digestSummarizer(), policy, ...(onWarn ? { onWarn } : {}) }).compact(messages);
  return { cleared: report.micro.cleared, tokensAfter: report.tokensAfter, messages };
};
const batched = await run(undefined);
const everyTurn = await run('every-turn');
const seed = await run('seed', (message) => told.push(message));
const seedAgain = await run('seed', (message) => told.push(message));
await new Promise((resolve) => setImmediate(resolve));
console.log(JSON.stringify({ batched, everyTurn, seed, seedAgain, told, warnings }));
`, SHORT);
  assert.equal(out.batched.cleared, 0, 'the default waits for microTrigger on this session');
  assert.ok(out.everyTurn.cleared > 0, "'every-turn' clears below microTrigger");
  assert.deepEqual(out.seed, out.everyTurn);
  assert.deepEqual(out.seedAgain, out.everyTurn);
  assert.deepEqual(out.told, [SEED_WARNING.message], 'onWarn hears it once');
  assert.deepEqual(out.warnings, [], 'and no process warning is added');
});

test("Compactor: policy 'seed' without onWarn is a DeprecationWarning, once; an unknown policy is still an error naming both", () => {
  const { out } = script(`
new midfold.Compactor({ summarize: midfold.digestSummarizer(), policy: 'seed' });
new midfold.Compactor({ summarize: midfold.digestSummarizer(), policy: 'seed' });
let refused;
try { new midfold.Compactor({ summarize: midfold.digestSummarizer(), policy: 'every_turn' }); }
catch (e) { refused = { code: e.code, message: e.message }; }
await new Promise((resolve) => setImmediate(resolve));
console.log(JSON.stringify({ warnings, refused }));
`);
  assert.deepEqual(out.warnings, [SEED_WARNING]);
  assert.equal(out.refused.code, 'invalid-option');
  assert.match(out.refused.message, /'batched' or 'every-turn'/);
});

test("midfold simulate --policy every-turn names it; --policy seed prints the same line and one deprecation on stderr", () => {
  const run = (...policies) => spawnSync(process.execPath, [CLI, 'simulate', SESSION, ...policies.flatMap((p) => ['--policy', p])],
    { encoding: 'utf8', timeout: 120000 });
  const everyTurn = run('every-turn');
  assert.equal(everyTurn.status, 0, everyTurn.stderr);
  const line = everyTurn.stdout.split('\n').find((l) => l.startsWith('every turn'));
  assert.ok(line, everyTurn.stdout);
  assert.doesNotMatch(everyTurn.stderr, /deprecated/);
  const seed = run('seed', 'seed');
  assert.equal(seed.status, 0, seed.stderr);
  assert.equal(seed.stdout.split('\n').filter((l) => l === line).length, 2, seed.stdout);
  assert.equal(seed.stderr.match(/the policy name 'seed' is deprecated/g)?.length, 1, seed.stderr);
});
