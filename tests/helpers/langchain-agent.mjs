// createAgent workloads for the LangChain suites and bench: a real agent (langchain 1.x) with a log-reading tool,
// its model a real @langchain/anthropic or @langchain/openai client pointed at the strict mock provider
// (tests/helpers/strict-provider.mjs, 127.0.0.1). The mock scripts a loop of tool calls (parallel ones every third
// step, signed thinking when asked) and answers a summarizer's request with a summary; everything else it enforces.
import { z } from 'zod';
import { createAgent, tool } from 'langchain';
import { ChatAnthropic } from '@langchain/anthropic';
import { ChatOpenAI } from '@langchain/openai';

/** What a tool returns for module `m`: realistic log lines, Chinese and English, `chars` long. */
export function logOutput(m, chars) {
  const line = `2026-12-07T10:${String(m % 60).padStart(2, '0')}:13Z INFO m${m} 请求处理完成 method=GET path=/api/orders/${m} status=200 latency=${12 + (m % 7)}ms\n`;
  return line.repeat(Math.ceil(chars / line.length)).slice(0, chars);
}

export const readLog = (chars) => tool(async ({ module }) => logOutput(Number(String(module).replace(/\D/g, '')) || 0, chars), {
  name: 'read_log', description: 'Reads the log of one module.', schema: z.object({ module: z.string() }),
});

/** True when a request is a summarizer's (midfold's or LangChain's summarizationMiddleware's), by its prompt. */
function isSummaryRequest(api, body) {
  const text = JSON.stringify(api === 'anthropic' ? [body.system ?? '', body.messages.at(-1)] : body.input.slice(0, 2));
  return /summar|Summar|摘要/.test(text) && !/read_log/.test(JSON.stringify(body.tools ?? []));
}

/** The number of tool results the request carries (how far the loop is). */
function resultsSent(api, body) {
  if (api === 'anthropic') return body.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((b) => b.type === 'tool_result').length;
  return body.input.filter((i) => i.type === 'function_call_output').length;
}

/**
 * Scripts `provider` (a strict mock) for a loop of `steps` model calls that call read_log (every third with two
 * parallel calls), then a final answer; summaries are answered with text. With `thinking`, each Anthropic tool
 * call step starts with a thinking block (the mock signs it).
 * Counts what it answered in `provider.tally` ({summaries}).
 */
export function scriptLoop(provider, { steps, thinking = false }) {
  provider.tally = { summaries: 0 };
  provider.reply = ({ api, body }) => {
    if (isSummaryRequest(api, body)) {
      provider.tally.summaries++;
      const text = '读取了各模块日志:全部返回 status=200,延迟 12–18ms,没有错误。';
      return api === 'anthropic' ? [{ type: 'text', text }]
        : [{ type: 'message', id: `msg_s${provider.tally.summaries}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }];
    }
    const done = resultsSent(api, body);
    const step = provider.requests.filter((r) => r.api === api && r.status === 200 && !isSummaryRequest(api, r.body)).length;
    if (step >= steps) {
      const text = `检查了 ${done} 个日志,全部正常。`;
      return api === 'anthropic' ? [{ type: 'text', text }]
        : [{ type: 'message', id: `msg_f${step}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] }];
    }
    const modules = step % 3 === 2 ? [done, done + 1] : [done];
    if (api === 'anthropic') {
      return [...(thinking ? [{ type: 'thinking', thinking: `Next: module m${done}.` }] : []),
        ...modules.map((m) => ({ type: 'tool_use', id: `toolu_${step}_${m}`, name: 'read_log', input: { module: `m${m}` } }))];
    }
    return modules.map((m) => ({ type: 'function_call', id: `fc_${step}_${m}`, call_id: `call_${step}_${m}`, name: 'read_log', arguments: JSON.stringify({ module: `m${m}` }), status: 'completed' }));
  };
}

/** A chat model of `kind` ('anthropic' | 'openai') talking to the mock at `url`. */
export function mockModel(kind, url, { thinking = false } = {}) {
  if (kind === 'anthropic') {
    return new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: 'test-key', anthropicApiUrl: url, maxRetries: 0, maxTokens: 2048,
      ...(thinking ? { thinking: { type: 'enabled', budget_tokens: 1024 } } : {}) });
  }
  return new ChatOpenAI({ model: 'gpt-5-mini', apiKey: 'test-key', useResponsesApi: true, maxRetries: 0, configuration: { baseURL: `${url}/v1` } });
}

/** A createAgent agent with read_log (`chars` per result) and `middleware`. */
export function logAgent(model, middleware, chars = 6000) {
  return createAgent({ model, tools: [readLog(chars)], middleware, systemPrompt: 'You are an SRE agent. Read the logs you are asked for.' });
}
