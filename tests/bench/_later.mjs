import { init, Compactor, digestSummarizer, estimateTokens } from '../../js/node.js';
import { chineseConversation, now } from './lib.mjs';
await init();
const N = 1000, R = 400;
const all = chineseConversation(N + 2 * R + 10, 22);
const msgs = all.slice(0, N);
const c = new Compactor({ summarize: digestSummarizer(), threshold: 1e9, microTrigger: 1e9 });
await c.compact(msgs);
const times = [];
for (let i = 0; i < R; i++) {
  msgs.push(all[N + 2 * i], all[N + 2 * i + 1]);
  const t0 = now();
  await c.compact(msgs);
  times.push(now() - t0);
}
times.sort((a, b) => a - b);
console.log('median ms', times[R >> 1].toFixed(4));
// the two new messages alone
const t = [];
for (let i = 0; i < R; i++) { const t0 = now(); estimateTokens([all[N + 2 * i], all[N + 2 * i + 1]], { profile: 'safe' }); t.push(now() - t0); }
t.sort((a, b) => a - b);
console.log('estimate 2 new msgs ms', t[R >> 1].toFixed(4));
