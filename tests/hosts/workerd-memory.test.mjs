// A long-lived Worker estimating a large conversation again and again, in real workerd (npm
// `workerd`). By default the workerd entry keeps its instance (releaseMemoryAbove: Infinity):
// its memory is what one call needs, reused by every later one. With releaseMemoryAbove set,
// the instance is replaced after each large call and the wasm memory in use is back at the
// module's resting size, but workerd's V8 collects the dropped instances' memory only at a
// full garbage collection, which wasm memory alone never brings on: the resident size printed
// grows by about the conversation's wasm peak per call (why the entry's default keeps).
// The figures asserted are wasm memory sizes (memory.buffer.byteLength, deterministic);
// workerd's RSS is printed as a diagnostic, never asserted. Everything listens on 127.0.0.1.

import test, { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { startWorkerd, workerConfig } from '../helpers/workerd.mjs';
import { longSession } from '../helpers/long-session.mjs';
import { init, estimateTokens } from '../../js/hosts/node.js';

const MiB = 1024 * 1024;
/** A Cloudflare Worker's memory limit (developers.cloudflare.com/workers/platform/limits). */
const WORKER_LIMIT = 128 * MiB;
const ROUNDS = 4;

const WORKER = `
import { init, estimateTokens, memoryUsage } from 'midfold';

export default {
  async fetch(request, env) {
    await init(undefined, env.RELEASE ? { releaseMemoryAbove: Number(env.RELEASE) } : undefined);
    if (request.method !== 'POST') return Response.json(memoryUsage());
    const tokens = estimateTokens(await request.json());
    return Response.json({ tokens, ...memoryUsage() });
  },
};
`;

// An agent session of 6,000 turns (tool calls in parallel, code and test output, Chinese logs):
// about 23 MB of JSON, which before the scratch grew in place took over 100 MB of wasm memory.
const BODY = JSON.stringify(longSession({ turns: 6000, format: 'openai' }).calls.flat());

// One workerd process per Worker, so that each resident size printed is that Worker's.
const wd = {};
let tmp;

before(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'midfold-workerd-memory-'));
  const main = path.join(tmp, 'memory-worker.js');
  await writeFile(main, WORKER);
  const workers = { released: [['RELEASE', String(16 * MiB)]], default: [] };
  for (const [name, bindings] of Object.entries(workers)) {
    const config = path.join(tmp, `${name}.capnp`);
    await writeFile(config, `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .main),
    (name = "loopback", network = (allow = ["127.0.0.1/32"])),
  ],
  sockets = [(name = "main", address = "127.0.0.1:0", http = (), service = "main")],
);

${workerConfig('main', main, tmp, bindings)}
`);
    wd[name] = await startWorkerd({ config });
  }
});

after(async () => {
  for (const w of Object.values(wd)) await w.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

async function call(socket, body) {
  const res = await fetch(`${wd[socket].url('main')}/`, {
    method: body === undefined ? 'GET' : 'POST', body, headers: { 'content-type': 'application/json' }, signal: AbortSignal.timeout(120000),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return res.json();
}

/** A workerd's resident memory in MB, for the diagnostic line (Linux /proc). */
function rssMB(socket) {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${wd[socket].pid}/status`, 'utf8'))[1]);
    return (kb / 1024).toFixed(0);
  } catch {
    return '?';
  }
}

test('with releaseMemoryAbove: 16 MiB, a Worker estimating a 23 MB conversation again and again is back at its resting wasm memory after every call', async (t) => {
  await init();
  const expected = estimateTokens(JSON.parse(BODY));
  const rest = (await call('released')).wasmBytes;
  assert.equal(rest, 4 * MiB, "the module's initial memory");
  for (let round = 1; round <= ROUNDS; round++) {
    const r = await call('released', BODY);
    t.diagnostic(`round ${round}: wasm peak ${(r.peakWasmBytes / MiB).toFixed(1)} MiB, now ${(r.wasmBytes / MiB).toFixed(1)} MiB; workerd RSS ${rssMB('released')} MB`);
    assert.equal(r.tokens, expected, 'the figure Node gives');
    assert.equal(r.wasmBytes, rest, `round ${round}: back at rest`);
    assert.equal(r.releases, round);
    assert.equal(r.releaseMemoryAbove, 16 * MiB);
    // The encoding (about the JSON's size) and its document, well under a Worker's limit.
    assert.ok(r.peakWasmBytes <= rest + 2 * BODY.length && r.peakWasmBytes < WORKER_LIMIT / 2,
      `peak ${r.peakWasmBytes} bytes of wasm memory for ${BODY.length} bytes of JSON`);
  }
  assert.equal((await call('released')).wasmBytes, rest, 'at rest between requests');
});

test("by default a Worker keeps its instance: every call reuses the memory the first one grew, under a Worker's limit", async (t) => {
  await init();
  const expected = estimateTokens(JSON.parse(BODY));
  assert.equal((await call('default')).releaseMemoryAbove, null, 'Infinity (JSON null): the workerd entry keeps its instance');
  let first;
  for (let round = 1; round <= ROUNDS; round++) {
    const r = await call('default', BODY);
    t.diagnostic(`round ${round}: wasm ${(r.wasmBytes / MiB).toFixed(1)} MiB; workerd RSS ${rssMB('default')} MB`);
    assert.equal(r.tokens, expected);
    first ??= r.wasmBytes;
    assert.equal(r.wasmBytes, first, `round ${round}: the memory is reused, not grown again`);
    assert.equal(r.releases, 0);
    assert.ok(r.wasmBytes <= 4 * MiB + 2 * BODY.length && r.wasmBytes < WORKER_LIMIT / 2, `${r.wasmBytes} bytes of wasm memory`);
  }
});
