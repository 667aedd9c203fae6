// Realistic LangChain JS conversations (@langchain/core 1.x instances) for the langchain suites: a coding
// session with parallel tool calls, Chinese text, an image, signed thinking, an invalid tool call and a failed
// tool run, and a long agent loop. Built with the real classes, as an agent's state holds them.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from '@langchain/core/messages';

const PACKAGE_JSON = JSON.stringify({
  name: 'ledger-service', version: '2.4.1', type: 'module',
  scripts: { test: 'vitest run', build: 'tsc -p tsconfig.build.json', lint: 'eslint src --max-warnings 0' },
  dependencies: { fastify: '5.2.0', pg: '8.13.1', zod: '3.24.1', pino: '9.6.0' },
  devDependencies: { vitest: '3.0.4', typescript: '5.7.3', eslint: '9.19.0' },
}, null, 2);

const LEDGER_TS = `import { z } from 'zod';
import type { Pool } from 'pg';

export const Entry = z.object({ account: z.string().min(1), cents: z.number().int(), memo: z.string().max(140) });

export async function post(pool: Pool, entries: z.infer<typeof Entry>[]) {
  const sum = entries.reduce((s, e) => s + e.cents, 0);
  if (sum !== 0) throw new Error(\`unbalanced posting: \${sum}\`);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const e of entries) await client.query('INSERT INTO entries(account, cents, memo) VALUES ($1, $2, $3)', [e.account, e.cents, e.memo]);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}
`.repeat(3);

const TEST_FAILURE = ` FAIL  test/ledger.test.ts > post > rejects an unbalanced posting
AssertionError: expected [Function] to throw error including 'unbalanced' but got 'relation "entries" does not exist'
 ❯ test/ledger.test.ts:18:43
     16|   it('rejects an unbalanced posting', async () => {
     17|     const pool = await testPool();
     18|     await expect(post(pool, [{ account: 'cash', cents: 100, memo: '' }])).rejects.toThrow('unbalanced');
       |                                           ^
 Test Files  1 failed | 3 passed (4)
      Tests  1 failed | 27 passed (28)
`;

/** A 1x1 PNG, base64 (what a user's pasted screenshot looks like, small). */
export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/**
 * A text-only coding session (what OpenAI Chat form carries without loss): Chinese and English, parallel
 * tool calls, a failed run (status "error"), an invalid tool call the model produced.
 */
export function codingSession() {
  return [
    new SystemMessage('You are a senior TypeScript engineer. Work in the repository with the tools given.'),
    new HumanMessage({ content: '请帮我看看 ledger-service 为什么测试失败了,然后修好它。', id: 'h-1' }),
    new AIMessage({
      id: 'ai-1', content: '我先读一下 package.json 和 src/ledger.ts。',
      tool_calls: [
        { id: 'call_pkg', name: 'read_file', args: { path: 'package.json' }, type: 'tool_call' },
        { id: 'call_src', name: 'read_file', args: { path: 'src/ledger.ts' }, type: 'tool_call' },
      ],
      usage_metadata: { input_tokens: 812, output_tokens: 64, total_tokens: 876 },
    }),
    new ToolMessage({ id: 't-1', content: PACKAGE_JSON, tool_call_id: 'call_pkg', name: 'read_file' }),
    new ToolMessage({ id: 't-2', content: LEDGER_TS, tool_call_id: 'call_src', name: 'read_file' }),
    new AIMessage({
      id: 'ai-2', content: 'Running the test suite.',
      tool_calls: [{ id: 'call_test', name: 'bash', args: { command: 'npx vitest run test/ledger.test.ts' }, type: 'tool_call' }],
      invalid_tool_calls: [{ id: 'call_bad', name: 'bash', args: '{"command": "npm test', error: 'Unterminated string in JSON', type: 'invalid_tool_call' }],
    }),
    new ToolMessage({ id: 't-3', content: TEST_FAILURE, tool_call_id: 'call_test', name: 'bash', status: 'error' }),
    new AIMessage({ id: 'ai-3', content: '测试数据库里没有 entries 表:迁移没有在测试前运行。我会在 testPool() 里先跑迁移。' }),
    new HumanMessage({ content: '好的,改完再跑一遍测试。', id: 'h-2' }),
  ];
}

/** The session with media and signed thinking, as @langchain/anthropic gives it back: not sendable as Chat. */
export function richSession() {
  const list = codingSession();
  list.splice(2, 0,
    new HumanMessage({ id: 'h-img', content: [
      { type: 'text', text: '这是 CI 的截图:' },
      { type: 'image', mimeType: 'image/png', data: TINY_PNG },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG}` } },
    ] }),
    new AIMessage({ id: 'ai-think', content: [
      { type: 'thinking', thinking: 'The screenshot shows the same failing test; read the sources first.', signature: 'EqQBCkYIBxgCKkD' },
      { type: 'text', text: 'I see the failing run in CI.' },
    ] }));
  return list;
}

/** `turns` agent turns of one tool call each, with `resultChars` of output per result, ending on a question. */
export function longLoop(turns, resultChars = 6000) {
  const list = [new SystemMessage('You are a coding agent.')];
  for (let t = 0; t < turns; t++) {
    const id = `call_${t}`;
    list.push(new HumanMessage({ id: `h-${t}`, content: `第 ${t} 步:检查模块 m${t} 的日志。` }));
    list.push(new AIMessage({ id: `ai-${t}`, content: '', tool_calls: [{ id, name: 'bash', args: { command: `cat logs/m${t}.log` }, type: 'tool_call' }] }));
    const line = `2026-12-07T10:${String(t % 60).padStart(2, '0')}:00Z m${t} 请求处理完成 status=200 latency=12ms\n`;
    list.push(new ToolMessage({ id: `t-${t}`, content: line.repeat(Math.ceil(resultChars / line.length)), tool_call_id: id, name: 'bash' }));
    list.push(new AIMessage({ id: `a-${t}`, content: `模块 m${t} 正常。` }));
  }
  list.push(new HumanMessage({ id: 'h-last', content: '总结一下所有模块的状态。' }));
  return list;
}
