// The page's "What it costs" card: the loaded conversation replayed call by call by midfold's
// simulator under the page's own settings (cost-policies.js), priced with a provider's prompt
// caching. The replay runs in a worker (cost-worker.js), one policy after another, so the
// page stays responsive on a long session and each line appears as soon as it is priced; a
// newer request ends the older replay. The chart is the SVG of `midfold simulate --chart`,
// drawn at the card's width (so its 11 px text stays 11 px on a phone), with the legend in
// HTML. It is put in the page as SVG elements, not shown as an image: Chromium paints an SVG
// image on the main thread (tasks of 300–500 ms were seen for a thousand turns of dashed
// lines), the page's own SVG off it. (Presentation attributes only, which the CSP's
// style-src 'self' allows.) Separate from app.js, which only calls showCost().

import { simulationChart, seriesStyle, markerPath } from '../js/simulate/chart.js';
import { costPolicies, explainPolicy } from './cost-policies.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Settings typed into the page wait this long for the next keystroke before a replay. */
const SETTLE_MS = 300;

const $ = (id) => document.getElementById(id);
const parser = new DOMParser();
const fmt = new Intl.NumberFormat('en-US');
const usd = (v) => `$${v < 1 ? v.toFixed(4) : v.toFixed(2)}`;

const card = {
  text: null,       // the conversation as loaded (JSON text); later edits on the page do not move it
  settings: null,   // the page's settings as they stand
  replayed: null,   // those the replay shown ran with
  policies: [],
  report: null,     // the results priced so far, in the order of `policies`
  worker: null,
  busy: false,
  run: 0,           // the latest request: an older replay's replies are dropped
  timer: 0,
  clock: 0,         // the busy line's seconds
  started: 0,
  width: 0,         // of the chart's box, as the ResizeObserver last saw it
  drawnWidth: 0,
};

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === 'class') node.className = value;
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

/** A legend key: a short line in the policy's colour and dash pattern, with its marker. */
function key(index) {
  const style = seriesStyle(index);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', 'key-line');
  svg.setAttribute('viewBox', '0 0 32 12');
  svg.setAttribute('width', '32');
  svg.setAttribute('height', '12');
  svg.setAttribute('aria-hidden', 'true');
  const line = document.createElementNS(SVG, 'line');
  for (const [k, v] of Object.entries({ x1: 0, y1: 6, x2: 32, y2: 6, stroke: style.color, 'stroke-width': 2 })) line.setAttribute(k, String(v));
  if (style.dash) line.setAttribute('stroke-dasharray', style.dash);
  const mark = document.createElementNS(SVG, 'path');
  const open = style.marker === 'plus';
  mark.setAttribute('d', markerPath(style.marker, 16, 6, 3.5));
  mark.setAttribute('fill', open ? 'none' : style.color);
  mark.setAttribute('stroke', open ? style.color : '#ffffff');
  mark.setAttribute('stroke-width', open ? '2' : '1');
  svg.append(line, mark);
  return svg;
}

const sameLine = (a, b) => a.perTurn.length === b.perTurn.length
  && a.perTurn.every((p, t) => p.context === b.perTurn[t].context && p.cumulativeUsd === b.perTurn[t].cumulativeUsd);

/** The first call of a result over the window (an index), or -1. */
const firstOver = (r) => r.firstTurnOverWindow ?? -1;

function renderLegend(report) {
  const items = card.policies.map((p, i) => {
    const r = report.results[i];
    let figure;
    if (!r) figure = el('span', { class: 'policy-total pending', text: 'replaying…' });
    else if (firstOver(r) >= 0) {
      const t = firstOver(r);
      figure = el('span', { class: 'policy-total impossible',
        text: `impossible: turn ${fmt.format(t + 1)} of ${fmt.format(report.turns)} sends ${fmt.format(r.perTurn[t].context)} tokens, over the ${fmt.format(report.window)}-token window` });
    } else figure = el('span', { class: 'policy-total', text: usd(r.totalUsd) });
    const twin = r ? report.results.findIndex((o, j) => j < i && o && sameLine(o, r)) : -1;
    const explain = explainPolicy(p.name, card.replayed, r) + (twin >= 0 ? ` Here it draws the same line as ${card.policies[twin].label}.` : '');
    return el('li', { class: 'policy', 'data-policy': p.name, 'data-state': !r ? 'pending' : firstOver(r) >= 0 ? 'impossible' : 'priced' },
      key(i), el('span', { class: 'policy-name', text: p.label }), figure, el('span', { class: 'policy-explain', text: explain }));
  });
  $('cost-legend').replaceChildren(...items);
}

function renderNote(report, done) {
  if (!report.turns) { $('cost-note').textContent = 'This conversation has no assistant message yet: no model call to replay.'; return; }
  let text = `${fmt.format(report.turns)} turns (model calls) replayed with ${report.provider} ${report.model} prices (${report.ttl} cache), `
    + `counted by the ${report.profile} profile, in a ${fmt.format(report.window)}-token window.`;
  if (done) {
    const fits = report.results.map((r, i) => ({ r, i })).filter(({ r }) => firstOver(r) < 0);
    const best = fits.reduce((a, b) => (b.r.totalUsd < a.r.totalUsd ? b : a), fits[0]);
    text += best ? ` Cheapest within the window: ${card.policies[best.i].label} (${usd(best.r.totalUsd)}).`
      : ' No policy keeps every call within the window.';
  }
  $('cost-note').textContent = text;
}

/**
 * The chart at the card's width; a report with some policies still replaying draws those
 * priced. The width is the one the ResizeObserver last gave: reading it from the layout here
 * would make the browser lay out, in this task, all that the page changed since its last frame.
 */
function renderChart(report) {
  const box = $('cost-chart');
  const width = card.width;
  if (!width) return;
  card.drawnWidth = width;
  const priced = { ...report, results: report.results.filter(Boolean) };
  const svg = parser.parseFromString(simulationChart(priced, { width, title: '', legend: false }), 'image/svg+xml').documentElement;
  svg.setAttribute('aria-label', `Context size and cumulative input cost per turn, one line per policy: ${card.policies.filter((_, i) => report.results[i]).map((p) => p.label).join(', ')}`);
  box.replaceChildren(document.importNode(svg, true));
}

// The busy line: a progress bar of the policies priced and the seconds gone, updated once a
// second (a spinning animation would need the main thread on every frame).
function setBusy(busy, label, priced = 0) {
  card.busy = busy;
  const section = $('cost');
  section.dataset.state = busy ? 'busy' : section.dataset.state === 'busy' ? 'ready' : section.dataset.state;
  section.setAttribute('aria-busy', String(busy));
  $('cost-busy').hidden = !busy;
  if (label) $('cost-busy-text').textContent = label;
  $('cost-progress').max = Math.max(1, card.policies.length);
  $('cost-progress').value = priced;
  clearInterval(card.clock);
  $('cost-elapsed').textContent = '';
  if (!busy) return;
  const started = card.started;
  card.clock = setInterval(() => { $('cost-elapsed').textContent = `${Math.round((performance.now() - started) / 1000)} s`; }, 1000);
}

function stopWorker() {
  if (card.worker) card.worker.terminate();
  card.worker = null;
}

function onReply(mine, event) {
  if (mine !== card.run) return;
  const { index, report, error, done } = event.data;
  const section = $('cost');
  if (error) {
    stopWorker();
    setBusy(false);
    section.dataset.state = 'error';
    $('cost-chart').replaceChildren();
    $('cost-legend').replaceChildren();
    $('cost-note').textContent = `Cannot simulate this conversation: ${error.code ? `${error.code}: ` : ''}${error.message}`;
    return;
  }
  if (done) {
    setBusy(false);
    section.dataset.state = 'ready';
    section.dataset.turns = String(card.report.turns);
    renderNote(card.report, true);
    return;
  }
  const results = card.report ? card.report.results : new Array(card.policies.length).fill(null);
  results[index] = report.results[0];
  card.report = { ...report, results };
  const priced = results.filter(Boolean).length;
  setBusy(true, `Replaying ${fmt.format(report.turns)} turns: ${priced} of ${card.policies.length} policies priced…`, priced);
  renderChart(card.report);
  renderLegend(card.report);
  renderNote(card.report, false);
}

function replay() {
  card.timer = 0;
  if (card.text === null || !card.settings) return;
  const mine = ++card.run;
  // A replay in flight has no way to stop between its awaits: its worker goes with it.
  if (card.busy) stopWorker();
  if (!card.worker) {
    card.worker = new Worker(new URL('./cost-worker.js', import.meta.url), { type: 'module', name: 'midfold cost replay' });
    card.worker.addEventListener('error', (event) => {
      event.preventDefault();
      onReply(card.run, { data: { error: { message: event.message || 'the replay worker failed to start' } } });
    });
  }
  const worker = card.worker;
  worker.onmessage = (event) => onReply(mine, event);
  card.replayed = card.settings;
  card.policies = costPolicies(card.settings);
  card.report = null;
  card.started = performance.now();
  $('cost').dataset.state = 'busy';
  setBusy(true, `Replaying the conversation under ${card.policies.length} policies…`);
  // As UTF-8 bytes, handed over: copying a string of megabytes into a message would hold this thread.
  const bytes = new TextEncoder().encode(card.text);
  worker.postMessage({
    id: mine,
    bytes,
    options: { pricing: $('cost-pricing').value, profile: card.settings.profile, window: card.settings.window },
    policies: card.policies.map((p) => p.policy),
  }, [bytes.buffer]);
}

function wire() {
  $('cost-pricing').addEventListener('change', replay);
  // Redrawn, not scaled, when the card's width changes (a phone turned, a window resized).
  new ResizeObserver((entries) => {
    card.width = Math.floor(entries[entries.length - 1].contentRect.width);
    if (card.report && card.width && card.width !== card.drawnWidth) renderChart(card.report);
  }).observe($('cost-chart'));
}

/**
 * Shows the cost of a conversation in the card, replayed with the page's settings.
 * `text` is the conversation as loaded (JSON); a new one replays at once, the same one with
 * new settings once the typing has settled.
 * @param {string} text
 * @param {{threshold: number, keepRecent: number, keepTail: number, profile: string, language?: string, window: number}} settings
 */
export function showCost(text, settings) {
  if (!$('cost')) return;
  if (!$('cost').dataset.wired) { $('cost').dataset.wired = '1'; wire(); }
  const fresh = text !== card.text;
  if (!fresh && JSON.stringify(settings) === JSON.stringify(card.settings)) return;
  card.text = text;
  card.settings = settings;
  clearTimeout(card.timer);
  if (fresh) replay();
  else card.timer = setTimeout(replay, SETTLE_MS);
}
