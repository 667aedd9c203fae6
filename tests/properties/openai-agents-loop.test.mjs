// Seeded multi-turn runs of the real @openai/agents Runner with midfold/openai-agents' compactionFilter as its
// callModelInputFilter, the model calls going over HTTP to the strict Responses mock on 127.0.0.1
// (tests/helpers/strict-provider.mjs): each user turn is a run over the previous run's history (the SDK keeps
// the originals; the filter only shapes what each call sends), with reasoning items, parallel function calls,
// failing test runs and Chinese requests. The Compactor's settings are drawn from each seed
// (tests/helpers/agent-loop.mjs). What holds on every call of every run:
// - the provider accepts it (every output has its call, every call its output, reasoning before its item);
// - after a compaction the estimate is under the threshold; a call over the threshold is only one that waits
//   for a tool loop whose reasoning is in flight;
// - the call right after a compaction is recognized by the carried state (no summary per call: the SDK sends
//   the original history again every time).
// Seeds are pinned: a failure names the seed, the turn and the call.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, Runner, tool } from '@openai/agents';
import { OpenAIProvider } from '@openai/agents-openai';
import { z } from 'zod';
import { init } from '../../js/hosts/node.js';
import { compactionFilter } from '../../js/integrations/openai-agents.js';
import { startStrictProvider } from '../helpers/strict-provider.mjs';
import { prng } from '../helpers/prng.mjs';
import { MODULES, EN, ZH, toolOutput, settingsOf, compactorOptions } from '../helpers/agent-loop.mjs';

const TOOLS = ['read_file', 'bash', 'grep'];

let provider;
before(async () => { await init(); provider = await startStrictProvider(); });
after(() => provider.close());

test('@openai/agents: 30 user turns per seed through compactionFilter, every call accepted, at settings drawn from the seed', async (t) => {
  for (const seed of [501, 502, 503, 504]) {
    const r = prng(seed);
    const s = settingsOf(r, { providers: false }); // (the provider's compaction is tested in agent-loop-properties)
    const reports = [];
    let module = MODULES[0];
    const tools = TOOLS.map((name) => tool({ name, description: `The ${name} tool.`, parameters: z.object({ arg: z.string() }), execute: async () => toolOutput(r, name, module) }));
    const agent = new Agent({ name: 'fixer', instructions: 'You fix the sales report. Use the tools.', tools, model: 'gpt-5.4' });
    const runner = new Runner({
      modelProvider: new OpenAIProvider({ apiKey: 'sk-test', baseURL: `${provider.url}/v1`, useResponses: true }),
      tracingDisabled: true,
      callModelInputFilter: compactionFilter(compactorOptions(s, (report) => reports.push(report))),
    });
    let history = [];
    let ids = 0;
    for (let turn = 0; turn < 30; turn++) {
      module = MODULES[Math.floor(r() * MODULES.length)];
      const pool = r() < 0.35 ? ZH : EN;
      const steps = Math.floor(r() * 4); // tool steps before the answer
      let step = 0;
      provider.reply = () => {
        const n = ++ids;
        const output = [provider.signReasoning(`rs_${n}`, step < steps ? `Look at ${module} first.` : 'Done.')];
        if (step++ >= steps) {
          return [...output, { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Fixed ${module}.`, annotations: [] }] }];
        }
        const calls = 1 + Math.floor(r() * 3);
        for (let k = 0; k < calls; k++) {
          output.push({ type: 'function_call', id: `fc_${n}_${k}`, call_id: `call_${n}_${k}`, name: TOOLS[Math.floor(r() * TOOLS.length)],
            arguments: JSON.stringify({ arg: `src/${module}.js` }), status: 'completed' });
        }
        return output;
      };
      const sent = provider.requests.length;
      const seen = reports.length;
      const where = `seed ${seed} (${JSON.stringify(s)}), turn ${turn}`;
      const result = await runner.run(agent, [...history, { role: 'user', content: pool[Math.floor(r() * pool.length)].replace('{m}', module) }], { maxTurns: steps + 2 });
      assert.equal(result.finalOutput, `Fixed ${module}.`, where);
      const calls = provider.requests.slice(sent).filter((q) => q.path === '/v1/responses');
      assert.deepStrictEqual(calls.filter((q) => q.status !== 200).map((q) => q.error), [], `${where}: the provider refused a call`);
      assert.equal(calls.length, steps + 1, `${where}: one call per step`);
      for (const [k, report] of reports.slice(seen).entries()) {
        const call = `${where}, call ${k}`;
        if (report.compacted) assert.ok(report.tokensAfter < s.threshold, `${call}: ${report.tokensAfter} tokens after a compaction`);
        else if (report.tokensAfter > s.threshold) assert.equal(report.reason, 'deferred-thinking', `${call}: ${report.tokensAfter} tokens sent`);
      }
      history = result.history;
    }
    for (let k = 1; k < reports.length; k++) {
      if (reports[k - 1].compacted) assert.ok(reports[k].session.matched > 0, `seed ${seed}: the call after compaction ${k - 1} planned afresh`);
    }
    const compactions = reports.filter((x) => x.compacted).length;
    t.diagnostic(`seed ${seed}: ${JSON.stringify(s)} -> ${reports.length} calls, ${compactions} compactions, ${reports.filter((x) => x.reason === 'deferred-thinking').length} waits, peak ${Math.max(...reports.map((x) => x.tokensAfter))}`);
    assert.ok(compactions >= 1, `seed ${seed}: no compaction`);
  }
});
