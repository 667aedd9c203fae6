#!/usr/bin/env node
/**
 * recall.mjs — what clearing early costs when what is cleared can be recalled: simulate()'s
 * recall model (js/simulate/recall.js) on generated long sessions (tests/helpers/long-session.mjs,
 * 100 and 300 turns in both formats; tests/bench/sessions.mjs, 100 and 300 turns of large results)
 * and on the bundled real-shaped sessions (web-demo/samples, tests/fixtures/compactor; Anthropic
 * and OpenAI Chat, the formats the model reads). For each: midfold's defaults, the 'recall' policy,
 * and the same clearing and folding without recall (re-reads run again). The table of
 * docs/recall.md ("What it costs"). Prints markdown; nothing is timed or asserted.
 *
 *   node tests/bench/recall.mjs [--pricing anthropic|openai|deepseek] [--policy SPEC] [--no-bundled]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { init } from '../../js/hosts/node.js';
import { POLICIES, simulate } from '../../js/simulate/simulate.js';
import { longSession } from '../helpers/long-session.mjs';
import { agentSession } from './sessions.mjs';
import { machine, table } from './lib.mjs';

const { values: args } = parseArgs({
  options: { pricing: { type: 'string', default: 'anthropic' }, policy: { type: 'string', default: 'recall' },
    'no-bundled': { type: 'boolean', default: false } },
});
await init();

const sessions = [];
for (const turns of [100, 300]) {
  for (const format of ['anthropic', 'openai']) sessions.push({ name: `long-session ${turns} (${format})`, session: longSession({ turns, format }).calls.flat() });
  sessions.push({ name: `agent session ${turns} (anthropic, large results)`, session: agentSession(turns) });
}
if (!args['no-bundled']) {
  const files = [...fs.readdirSync('web-demo/samples').map((f) => `web-demo/samples/${f}`),
    ...fs.readdirSync('tests/fixtures/compactor').map((f) => `tests/fixtures/compactor/${f}`)]
    .filter((f) => /\.(anthropic|openai)\.json$/.test(f));
  for (const file of files) sessions.push({ name: file, session: JSON.parse(fs.readFileSync(file, 'utf8')) });
}

// The recall policy's clearing and folding without the recall model: what recall adds to it.
const spec = POLICIES[args.policy] ? { name: args.policy, ...POLICIES[args.policy] } : args.policy;
const recallPolicy = typeof spec === 'string' ? spec : { name: spec.name, compactor: spec.compactor, micro: spec.micro, recall: spec.recall };
const withoutRecall = typeof spec === 'string' ? spec.split('+').filter((p) => !p.startsWith('recall')).join('+')
  : { name: 'without recall', compactor: spec.compactor, micro: spec.micro };

const ratio = (a, b) => (b ? (a / b).toFixed(2) : '–');
const usd = (x) => `$${x.toFixed(x < 1 ? 4 : 2)}`;
const rows = [];
let met = 0;
for (const { name, session } of sessions) {
  const r = await simulate(session, { pricing: args.pricing, policies: ['defaults', recallPolicy, withoutRecall] });
  const [d, x, plain] = r.results;
  const rc = x.recall;
  const ok = x.peakContext <= d.peakContext / 2 && x.meanContext <= d.meanContext / 2 && x.totalUsd <= d.totalUsd && rc.unrecoverableBytes === 0;
  if (ok) met++;
  rows.push([name, r.turns, d.peakContext, d.meanContext, usd(d.totalUsd),
    `${x.peakContext} (${ratio(x.peakContext, d.peakContext)})`, `${x.meanContext} (${ratio(x.meanContext, d.meanContext)})`,
    `${usd(x.totalUsd)} (${ratio(x.totalUsd, d.totalUsd)})`, `${rc.recalls} / ${rc.roundTrips} / ${rc.extraRequests}`,
    (rc.clearedBytes / 1024).toFixed(0), rc.unrecoverableBytes, `${usd(plain.totalUsd)} (${ratio(plain.totalUsd, d.totalUsd)})`, ok ? 'yes' : 'no']);
}
const m = machine();
console.log(`# Recall: ${args.pricing} pricing, policy ${typeof spec === 'string' ? spec : `'${spec.name}' (${spec.label})`} (${m.date.slice(0, 10)}, Node ${m.node})\n`);
console.log(table(['session', 'turns', 'defaults peak', 'mean', 'bill', 'recall peak (÷)', 'mean (÷)', 'bill (÷)',
  'recalls / round trips / extra requests', 'cleared KB', 'unrecoverable bytes', 'same clearing, re-run instead (÷)', 'met'], rows));
console.log(`\nTarget (peak and mean at most half the defaults', bill at most the defaults', nothing unrecoverable) met on ${met} of ${sessions.length} sessions.`);
