// Every integration that takes compaction options hands the knobs to its Compactor: a valid knob is taken, an
// ill-typed one is refused when the integration is made, with the option's path (not at the first model call).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { MemorySession } from '@openai/agents';
import { init, digestSummarizer } from '../../js/hosts/node.js';
import { compactStep, midfoldMiddleware } from '../../js/integrations/ai-sdk.js';
import { compactionFilter, midfoldSession } from '../../js/integrations/openai-agents.js';
import { compactionMiddleware } from '../../js/integrations/langchain.js';
import { compactionProcessor } from '../../js/integrations/mastra.js';

before(() => init());

const FACTORIES = {
  compactStep: (o) => compactStep({ summarize: digestSummarizer(), ...o }),
  midfoldMiddleware: (o) => midfoldMiddleware({ summarize: digestSummarizer(), ...o }),
  compactionFilter: (o) => compactionFilter({ summarize: digestSummarizer(), ...o }),
  midfoldSession: (o) => midfoldSession({ underlyingSession: new MemorySession(), summarize: digestSummarizer(), ...o }),
  compactionMiddleware: (o) => compactionMiddleware({ summarize: digestSummarizer(), ...o }),
  compactionProcessor: (o) => compactionProcessor({ summarize: digestSummarizer(), ...o }),
};
const GOOD = { clearToolInputs: true, thinking: { keep: 1 }, dropToolCalls: { tools: ['grep'], beforeLast: 4 }, reasoning: 'before-last-message' };
const BAD = [
  [{ clearToolInputs: 1 }, 'clearToolInputs'],
  [{ thinking: { keep: 'one' } }, 'thinking.keep'],
  [{ thinking: { keep: 1, turns: 2 } }, 'thinking.turns'],
  [{ dropToolCalls: { tools: ['grep'], beforeLast: 4, kind: 'all' } }, 'dropToolCalls.kind'],
  [{ dropToolCalls: { tools: [''], beforeLast: 4 } }, 'dropToolCalls.tools[0]'],
  [{ reasoning: 'none' }, 'reasoning'],
];

for (const [name, make] of Object.entries(FACTORIES)) {
  test(`${name} takes the knobs and refuses ill-typed ones with their path`, () => {
    assert.ok(make(GOOD));
    for (const [options, path] of BAD)
      assert.throws(() => make(options), (e) => e.code === 'invalid-option' && e.path === path, `${name} ${path}`);
  });
}
