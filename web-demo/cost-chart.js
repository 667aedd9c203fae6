// The demo page's "What it costs" card: the loaded conversation replayed turn by turn by
// midfold's simulator under a few context policies, priced with a provider's prompt
// caching, drawn as the same SVG as `midfold simulate --chart` (shown as an image, which
// the page's CSP allows: img-src data:). Separate from app.js, which only calls showCost().

import { simulate, simulationChart } from '../js/hosts/browser.js';

const POLICIES = ['none', 'every-turn', 'context-editing', 'defaults'];
let shown = null;   // the conversation the card shows
let run = 0;        // the latest request, so a slow replay never overwrites a newer one

const $ = (id) => document.getElementById(id);
const usd = (v) => `$${v < 1 ? v.toFixed(4) : v.toFixed(2)}`;

async function draw() {
  const card = $('cost');
  if (!card || !shown) return;
  const mine = ++run;
  const pricing = $('cost-pricing').value;
  card.dataset.state = 'busy';
  try {
    const report = await simulate(shown, { pricing, policies: POLICIES });
    if (mine !== run) return;
    const img = document.createElement('img');
    img.alt = `Context size and cumulative input cost per turn for ${report.results.map((r) => r.label).join(', ')}`;
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(simulationChart(report, { width: 720 }))}`;
    img.width = 720;
    $('cost-chart').replaceChildren(img);
    const best = report.results.reduce((a, b) => (b.totalUsd < a.totalUsd ? b : a));
    $('cost-note').textContent = report.turns
      ? `${report.turns} model calls replayed, ${report.provider} ${report.model} prices, ${report.ttl} cache. `
        + report.results.map((r) => `${r.label}: ${usd(r.totalUsd)}`).join(' · ') + `. Cheapest: ${best.label}.`
      : 'This conversation has no assistant message yet: no model call to replay.';
    card.dataset.turns = String(report.turns);
    card.dataset.state = 'ready';
  } catch (error) {
    if (mine !== run) return;
    card.dataset.state = 'error';
    $('cost-chart').replaceChildren();
    $('cost-note').textContent = `Cannot simulate this conversation: ${error && error.message ? error.message : String(error)}`;
  }
}

/** Shows the cost of `messages` (as loaded) in the card; later edits on the page do not move it. */
export function showCost(messages) {
  shown = structuredClone(messages);
  const select = $('cost-pricing');
  if (select && !select.dataset.wired) {
    select.dataset.wired = '1';
    select.addEventListener('change', draw);
  }
  return draw();
}
