// The README's runnable snippets, run verbatim: each ```js block after a `<!-- run: NAME -->` line is written
// to tests/output/ (inside the package, so `import 'midfold'` resolves to this checkout) and run with Node,
// its providers pointed at mock servers on 127.0.0.1 through the environment variables the SDKs read.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startStrictProvider } from './helpers/strict-provider.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = fileURLToPath(new URL('./output/', import.meta.url));

/** { name: code } for every marked snippet of the README. */
function snippets() {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const found = {};
  for (const m of readme.matchAll(/<!-- run: ([\w-]+) -->\n```js\n([\s\S]*?)\n```/g)) found[m[1]] = m[2];
  return found;
}

/** Runs a snippet; resolves {code, stdout, stderr}. Only loopback settings are passed on. */
function runSnippet(name, env) {
  mkdirSync(OUT, { recursive: true });
  const file = `${OUT}readme-${name}.mjs`;
  writeFileSync(file, snippets()[name]);
  return new Promise((resolve) => {
    execFile(process.execPath, [file], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, timeout: 120000, maxBuffer: 16 << 20 },
      (error, stdout, stderr) => resolve({ code: error ? error.code ?? 1 : 0, stdout, stderr }));
  });
}

let provider;
before(async () => { provider = await startStrictProvider(); });
after(() => provider.close());

test('the README marks the snippets this suite runs', () => {
  assert.deepStrictEqual(Object.keys(snippets()).sort(), ['anthropic-loop']);
});

test('anthropic-loop: the tool loop compacts through Anthropic\'s own compaction, and every request it sends is accepted', async () => {
  // The model reads the C core and its tests six files at a time (parallel tool calls over real files of this
  // repository), saves a note with the memory tool on the way, and answers after eight rounds.
  const pool = [...readdirSync(new URL('../src/', import.meta.url)).filter((f) => f.endsWith('.c')).map((f) => `src/${f}`),
    ...readdirSync(new URL('./', import.meta.url)).filter((f) => f.endsWith('.test.mjs')).map((f) => `tests/${f}`)].sort();
  let step = 0;
  provider.reply = () => {
    const i = step++;
    if (i === 3) return [{ type: 'tool_use', id: `toolu_mem_${i}`, name: 'memory', input: { command: 'create', path: '/memories/pairing.md', file_text: 'Results are linked to calls in src/view.c (mf_view_link_results).\n' } }];
    if (i >= 9) return [{ type: 'text', text: 'Tool results are paired with their calls in src/view.c, mf_view_link_results.' }];
    const reads = pool.slice((i * 6) % pool.length, (i * 6) % pool.length + 6);
    return [{ type: 'text', text: `Reading ${reads.join(', ')}.` },
      ...reads.map((path, k) => ({ type: 'tool_use', id: `toolu_${i}_${k}`, name: 'read_file', input: { path } }))];
  };
  const from = provider.requests.length;
  const r = await runSnippet('anthropic-loop', { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: provider.url });
  assert.equal(r.code, 0, r.stderr);
  const requests = provider.requests.slice(from);
  assert.deepStrictEqual(requests.filter((q) => q.status !== 200).map((q) => q.error), []);
  const compactions = requests.filter((q) => q.body.compaction);
  assert.ok(compactions.length >= 1, 'the Compactor asked Anthropic for a compaction');
  const after = requests[requests.indexOf(compactions[0]) + 1];
  assert.equal(after.body.messages[0].content[0].type, 'compaction', 'the signed block goes first in the next request');
  assert.ok(requests.some((q) => q.body.messages.some((m) => Array.isArray(m.content)
    && m.content.some((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_mem_3'))), 'the memory tool answered');
  assert.match(r.stdout, /compacted: \d+ -> \d+ tokens/);
  assert.match(r.stdout, /mf_view_link_results/);
});
