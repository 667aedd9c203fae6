// A mock OpenAI Responses endpoint: a real HTTP server on 127.0.0.1 (ephemeral port) that the
// real `openai` client talks to (POST /v1/responses). It checks `input` by the rules the API
// enforces, written here from OpenAI's documentation and the API's own error messages
// (docs/openai-responses.md lists them), independently of midfold's validate, and answers
// 400 with the API's wording when one is broken, else 200 with a one-message response.
//
//   const api = await startMockResponses();
//   const client = new OpenAI({ apiKey: 'test', baseURL: api.url + '/v1' });
//   await client.responses.create({ model: 'gpt-5', input });
//   api.requests[0].input
//   await api.close();
import http from 'node:http';

const PAIRS = {
  function_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
  computer_call: 'computer_call_output',
  local_shell_call: 'local_shell_call_output',
  shell_call: 'shell_call_output',
  apply_patch_call: 'apply_patch_call_output',
};
const OUTPUTS = Object.fromEntries(Object.entries(PAIRS).map(([call, out]) => [out, call]));
const INPUT_PARTS = new Set(['input_text', 'input_image', 'input_file']);
const ASSISTANT_PARTS = new Set(['output_text', 'refusal']);
// What a reasoning item may be followed by: what the model produced after it.
const PRODUCED = new Set(['message', 'reasoning', 'function_call', 'custom_tool_call', 'computer_call',
  'local_shell_call', 'shell_call', 'apply_patch_call', 'web_search_call', 'file_search_call',
  'code_interpreter_call', 'image_generation_call', 'mcp_call', 'mcp_list_tools', 'mcp_approval_request']);

const typeOf = (item) => (typeof item.type === 'string' ? item.type : typeof item.role === 'string' ? 'message' : undefined);
const idOf = (item) => item.call_id ?? (item.type === 'local_shell_call_output' ? item.id : undefined);

/** The first rule `input` breaks, as the API's error message, or null. */
export function checkInput(input) {
  if (typeof input === 'string') return null;
  if (!Array.isArray(input)) return "Invalid type for 'input': expected a string or an array.";
  const calls = new Map(), approvals = new Set();
  for (let i = 0; i < input.length; i++) {
    const item = input[i];
    if (!item || typeof item !== 'object') return `Invalid type for 'input[${i}]': expected an object.`;
    const type = typeOf(item);
    if (type === undefined) return `Missing required parameter: 'input[${i}].type'.`;
    if (type === 'message') {
      const allowed = item.role === 'assistant' ? ASSISTANT_PARTS : INPUT_PARTS;
      if (typeof item.content !== 'string') {
        if (!Array.isArray(item.content)) return `Invalid type for 'input[${i}].content'.`;
        for (let j = 0; j < item.content.length; j++) {
          const t = item.content[j] && item.content[j].type;
          if (!allowed.has(t))
            return `Invalid value: '${t}'. Supported values are: ${[...allowed].map((x) => `'${x}'`).join(' and ')}. (input[${i}].content[${j}].type)`;
        }
      }
    } else if (PAIRS[type]) {
      if (typeof item.call_id !== 'string') return `Missing required parameter: 'input[${i}].call_id'.`;
      // (a function call's arguments are a string of JSON, a custom tool call's input a string)
      const key = type === 'function_call' ? 'arguments' : type === 'custom_tool_call' ? 'input' : null;
      if (key && typeof item[key] !== 'string')
        return `Invalid type for 'input[${i}].${key}': expected a string, but got ${item[key] === null ? 'null' : typeof item[key]} instead.`;
      if (type === 'function_call') {
        try { JSON.parse(item.arguments); } catch { return `Invalid 'input[${i}].arguments': the function call's arguments are not valid JSON.`; }
      }
      // An async call (async tool calling) may wait: its output comes in a later request.
      calls.set(item.call_id, { type, answered: item.async === true, outputs: 0 });
    } else if (OUTPUTS[type]) {
      const id = idOf(item);
      const call = calls.get(id);
      if (!call || call.type !== OUTPUTS[type])
        return `No tool call found for ${OUTPUTS[type].replace(/_/g, ' ')} output with call_id ${id}.`;
      // One output per call (the API's 400, as relayed in NousResearch/hermes-agent#102629).
      if (call.outputs++) return `Duplicate ${type} for call_id '${id}'. Each ${call.type} must have exactly one matching ${type}.`;
      call.answered = true;
      if (type === 'function_call_output' || type === 'custom_tool_call_output') {
        const out = item.output;
        const ok = typeof out === 'string' || (Array.isArray(out) && out.every((p) => p && INPUT_PARTS.has(p.type)));
        if (!ok) return `Invalid type for 'input[${i}].output': expected a string or an array of input content.`;
      }
      if (type === 'computer_call_output') {
        const out = item.output;
        if (!out || out.type !== 'computer_screenshot' || (typeof out.image_url !== 'string' && typeof out.file_id !== 'string'))
          return `Invalid value for 'input[${i}].output': expected a computer_screenshot with image_url or file_id.`;
      }
    } else if (type === 'reasoning') {
      const next = input[i + 1];
      if (!Array.isArray(item.summary)) return `Missing required parameter: 'input[${i}].summary'.`;
      if (!next || !PRODUCED.has(typeOf(next)) || (typeOf(next) === 'message' && next.role !== 'assistant'))
        return `Item '${item.id}' of type 'reasoning' was provided without its required following item.`;
    } else if (type === 'configuration_update') {
      // The type's doc comment asks for reasoning, text or both; two updates in a row are a 400 (docs/openai-responses.md).
      if (item.reasoning == null && item.text == null) return `Invalid 'input[${i}]': a configuration_update needs reasoning, text, or both.`;
      if (i > 0 && typeOf(input[i - 1]) === 'configuration_update')
        return `Invalid 'input[${i}]': a configuration_update item cannot directly follow another configuration_update item.`;
    } else if (type === 'mcp_approval_request') {
      approvals.add(item.id);
    } else if (type === 'mcp_approval_response') {
      if (!approvals.has(item.approval_request_id))
        return `No approval request found for mcp_approval_response with approval_request_id ${item.approval_request_id}.`;
    }
  }
  for (const [id, call] of calls)
    if (!call.answered) return `No tool output found for ${call.type.replace(/_/g, ' ')} ${id}.`;
  return null;
}

function responseBody(model, n, output) {
  return {
    id: `resp_mock${n}`,
    object: 'response',
    created_at: 1764547200 + n,
    status: 'completed',
    model,
    output: output || [{
      type: 'message', id: `msg_mock${n}`, role: 'assistant', status: 'completed',
      content: [{ type: 'output_text', text: 'ok', annotations: [] }],
    }],
    parallel_tool_calls: true,
    tool_choice: 'auto',
    tools: [],
    usage: { input_tokens: 10, output_tokens: 1, total_tokens: 11, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
}

/**
 * Starts the server; resolves to {url, requests, script, close}. Set `script` to a
 * function (request body, request number from 1) returning the response's `output` items
 * to script the model; without one (or when it returns undefined) it answers "ok".
 */
export async function startMockResponses() {
  const requests = [];
  const api = { url: '', requests, script: null, close: null };
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      const send = (status, value) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method !== 'POST' || !/\/responses$/.test(req.url)) return send(404, { error: { message: 'not found' } });
      let parsed;
      try { parsed = JSON.parse(body); } catch { return send(400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } }); }
      requests.push(parsed);
      const problem = checkInput(parsed.input);
      if (problem) return send(400, { error: { message: problem, type: 'invalid_request_error', param: 'input', code: null } });
      send(200, responseBody(parsed.model, requests.length, api.script && api.script(parsed, requests.length)));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  api.url = `http://127.0.0.1:${port}`;
  api.close = () => new Promise((resolve) => server.close(resolve));
  return api;
}
