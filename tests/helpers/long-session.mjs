// Long agent sessions as a stateless host sees them: a list of calls, each the messages the host appended
// since the previous call (a user request, or the assistant's tool calls and their results). Deterministic
// (seeded), in the OpenAI Chat Completions or the Anthropic Messages shape, with parallel tool calls, code
// and test output, and Chinese requests and logs every few turns.
//
//   const { calls } = longSession({ turns: 200, format: 'anthropic' });
//   const history = [];
//   for (const added of calls) { history.push(...added); /* the host sends `history` */ }

import { prng } from './prng.mjs';

const MODULES = ['dates', 'ledger', 'invoice', 'report', 'locale', 'cache', 'auth', 'export'];
const VERBS = ['parse', 'format', 'round', 'convert', 'merge', 'validate', 'sum', 'group'];
const ZH_REQUESTS = [
  '帮我看一下 {file}，三月份的报表跑出来金额不对，东北区少了一笔。',
  '测试还是失败，能不能先把 {file} 里的时区处理改成统一用 UTC？',
  '这个函数太长了，拆成两个小函数，顺便把注释写成中文。',
  '跑一下全部测试，告诉我还有哪些没通过。',
];
const EN_REQUESTS = [
  'Read {file} and tell me why the totals are off by one cent.',
  'Run the tests for {file} and fix whatever fails.',
  'Add a regression test for the rounding bug we just fixed in {file}.',
  'Search the repository for other callers of {fn} and update them.',
];

function codeFile(rand, name, lines) {
  const out = [];
  for (let i = 1; i <= lines; i++) {
    const v = VERBS[Math.floor(rand() * VERBS.length)];
    const n = Math.floor(rand() * 1000);
    out.push(i % 9 === 0 ? `${i}: // ${name}: keep amounts in integer cents (${n})`
      : `${i}: export function ${v}${i}(value, options = {}) { return value.${v}(${n}, options.locale ?? 'en-US'); }`);
  }
  return out.join('\n');
}

function testRun(rand, name, zh) {
  const lines = [`> npm test -- ${name}`, ''];
  const count = 6 + Math.floor(rand() * 10);
  for (let i = 0; i < count; i++) {
    const ok = rand() > 0.25;
    lines.push(`${ok ? '✔' : '✖'} ${name} ${VERBS[i % VERBS.length]} case ${i} (${Math.floor(rand() * 40)} ms)`);
    if (!ok) lines.push(zh ? `  AssertionError: 期望 1287.50，实际得到 1287.49（第 ${i} 行）` : `  AssertionError: expected 1287.50, got 1287.49 (row ${i})`);
  }
  lines.push(`ℹ tests ${count}`, zh ? 'ℹ 耗时 1.2 秒' : 'ℹ duration_ms 1204');
  return lines.join('\n');
}

function grepHits(rand, fn) {
  const out = [];
  const n = 3 + Math.floor(rand() * 8);
  for (let i = 0; i < n; i++) {
    const m = MODULES[Math.floor(rand() * MODULES.length)];
    out.push(`src/${m}.js:${Math.floor(rand() * 300)}:  const total = ${fn}(rows[${i}], { cents: true });`);
  }
  return out.join('\n');
}

/**
 * @param {{turns?: number, format?: 'openai' | 'anthropic', seed?: number, system?: boolean}} [options]
 * @returns {{calls: object[][], format: string}}
 */
export function longSession({ turns = 100, format = 'openai', seed = 7, system = true } = {}) {
  const rand = prng(seed);
  const calls = [];
  let first = [];
  if (system) {
    first.push(format === 'anthropic'
      ? { role: 'user', content: 'You are working in the sales-report repository. Keep changes small and explain them.' }
      : { role: 'system', content: 'You are a careful coding agent in the sales-report repository. Use the tools; keep changes small.' });
    if (format === 'anthropic') first.push({ role: 'assistant', content: 'Understood. What should I look at first?' });
  }
  for (let t = 0; t < turns; t++) {
    const module = MODULES[t % MODULES.length];
    const file = `src/${module}.js`;
    const fn = `${VERBS[t % VERBS.length]}Amount`;
    const zh = t % 4 === 1;
    const request = (zh ? ZH_REQUESTS : EN_REQUESTS)[t % 4].replace('{file}', file).replace('{fn}', fn);
    // Call 1: the user's request arrives (with the previous turn's final answer before it).
    calls.push([...first, { role: 'user', content: request }]);
    first = [];

    // Call 2: the assistant's tool calls (1 to 3 in parallel) and their results.
    const tools = [];
    const n = 1 + Math.floor(rand() * 3);
    for (let k = 0; k < n; k++) {
      const kind = (t + k) % 3;
      const id = `call_${t}_${k}`;
      if (kind === 0) tools.push({ id, name: 'read_file', input: { file_path: file }, output: codeFile(rand, module, 20 + Math.floor(rand() * 40)) });
      else if (kind === 1) tools.push({ id, name: 'bash', input: { command: `npm test -- ${module}` }, output: testRun(rand, module, zh) });
      else tools.push({ id, name: 'grep', input: { pattern: fn, path: 'src' }, output: grepHits(rand, fn) });
    }
    const note = zh ? `我先看看 ${file} 和相关的测试。` : `Let me look at ${file} and its tests.`;
    const conclusion = zh
      ? `${file} 里的 ${fn} 在换算成分的时候先四舍五入了一次，所以东北区少了 0.01。我已经改成整数分计算，测试通过。`
      : `${fn} in ${file} rounded before converting to cents, which loses a cent on some rows. I now keep integer cents; the tests pass.`;
    if (format === 'anthropic') {
      calls.push([
        { role: 'assistant', content: [{ type: 'text', text: note }, ...tools.map((x) => ({ type: 'tool_use', id: x.id, name: x.name, input: x.input }))] },
        { role: 'user', content: tools.map((x) => ({ type: 'tool_result', tool_use_id: x.id, content: x.output })) },
      ]);
      first = [{ role: 'assistant', content: [{ type: 'text', text: conclusion }] }];
    } else {
      calls.push([
        { role: 'assistant', content: note, tool_calls: tools.map((x) => ({ id: x.id, type: 'function', function: { name: x.name, arguments: JSON.stringify(x.input) } })) },
        ...tools.map((x) => ({ role: 'tool', tool_call_id: x.id, content: x.output })),
      ]);
      first = [{ role: 'assistant', content: conclusion }];
    }
  }
  return { calls, format };
}
