/**
 * simulate/chart.js — a small SVG of a simulate() report: context size per turn (with
 * the window) and cumulative cost per turn, one line per policy. Hand-written SVG text,
 * no dependency, so the CLI (--chart) and the demo page draw the same picture. Styling is
 * in presentation attributes, not a <style> element, so a page with a strict CSP
 * (style-src 'self') can show it inline too.
 *
 * Lines that coincide (two policies that manage nothing on a short session) stay apart:
 * each policy has its own colour from Okabe and Ito's palette, which readers with any
 * common colour-vision deficiency can tell apart, its own dash pattern and its own marker,
 * the markers of different policies on different turns. A call over the window is one the
 * provider refuses: the band above the window is shaded, and a policy's cost stops at its
 * first such turn, marked with a cross in its colour, since what follows was never billed.
 */

// Okabe & Ito (2008), darkest first: the first lines have the most contrast on white, the
// yellow (1.1:1 on white) comes last.
const COLORS = ['#000000', '#D55E00', '#0072B2', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#F0E442'];
const DASHES = ['', '7 4', '2 3', '10 3 2 3', '4 2 1 2', '12 4'];
const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'triangle-down', 'plus'];
const OVER = '#c81e1e';

// Presentation attributes of each kind of element.
// Whole literals, not templates over a shared font string: a bundler keeps a top-level
// template (it may call toString), so every page importing midfold would carry these.
const TITLE = 'font-family="system-ui, sans-serif" font-size="11" font-weight="600" fill="#111827"';
const TICK = 'font-family="system-ui, sans-serif" font-size="11" fill="#4b5563"';
const LABEL = 'font-family="system-ui, sans-serif" font-size="11" fill="#374151"';
const GRID = 'stroke="#e5e7eb"';
const FRAME = 'fill="none" stroke="#9ca3af"';
const WINDOW = 'stroke="#4b5563" stroke-dasharray="4 3"';
/** Pixels per character of 11 px system-ui text, a little wide: titles are wrapped by it. */
const CHAR_PX = 6.4;

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/**
 * How the chart draws its `index`-th policy: a colour, a dash pattern ('' for solid) and a
 * marker ('circle', 'square', 'triangle', 'diamond', 'triangle-down' or 'plus'). A page that
 * draws its own legend (simulationChart's `legend: false`) draws its keys with these.
 * @param {number} index
 * @returns {{color: string, dash: string, marker: string}}
 */
export function seriesStyle(index) {
  return { color: COLORS[index % COLORS.length], dash: DASHES[index % DASHES.length], marker: MARKERS[index % MARKERS.length] };
}

/**
 * The SVG path data of a marker centred on (x, y), `r` its half size.
 * @param {string} marker one of seriesStyle()'s, or 'cross'
 * @returns {string}
 */
export function markerPath(marker, x, y, r) {
  const f = (v) => +v.toFixed(1);
  const [a, b, c, d] = [f(x - r), f(x + r), f(y - r), f(y + r)];
  switch (marker) {
    case 'square': return `M${a} ${c}H${b}V${d}H${a}Z`;
    case 'triangle': return `M${f(x)} ${f(y - r * 1.15)}L${f(x + r * 1.1)} ${f(y + r * 0.85)}H${f(x - r * 1.1)}Z`;
    case 'triangle-down': return `M${f(x)} ${f(y + r * 1.15)}L${f(x + r * 1.1)} ${f(y - r * 0.85)}H${f(x - r * 1.1)}Z`;
    case 'diamond': return `M${f(x)} ${f(y - r * 1.3)}L${f(x + r * 1.3)} ${f(y)}L${f(x)} ${f(y + r * 1.3)}L${f(x - r * 1.3)} ${f(y)}Z`;
    case 'plus': return `M${a} ${f(y)}H${b}M${f(x)} ${c}V${d}`;
    case 'cross': return `M${a} ${c}L${b} ${d}M${a} ${d}L${b} ${c}`;
    default: return `M${a} ${f(y)}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0Z`;
  }
}

/** A marker element in a policy's style: filled shapes with a white rim, open ones stroked. */
function marker(style, x, y, r = 3.5) {
  const open = style.marker === 'plus' || style.marker === 'cross';
  return open
    ? `<path d="${markerPath(style.marker, x, y, r)}" fill="none" stroke="${style.color}" stroke-width="2"/>`
    : `<path d="${markerPath(style.marker, x, y, r)}" fill="${style.color}" stroke="#ffffff" stroke-width="1"/>`;
}

/** A round step so that `max` spans about four ticks. */
function tickStep(max) {
  if (!(max > 0)) return 1;
  const raw = max / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

function tokensLabel(v) { return v >= 1e6 ? `${+(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${+(v / 1e3).toFixed(0)}k` : String(v); }
function usdLabel(v) { return v >= 1 ? `$${+v.toFixed(2)}` : `$${+v.toPrecision(2)}`; }

/** `text` in lines of at most `px` pixels, broken at spaces (a word longer than a line stays whole). */
function wrap(text, px) {
  const max = Math.max(8, Math.floor(px / CHAR_PX));
  const lines = [];
  let line = '';
  for (const word of String(text).split(' ')) {
    if (line && line.length + 1 + word.length > max) { lines.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Text lines with their first baseline at y, 14 px apart. */
function textLines(x, y, lines, attrs) {
  return lines.map((line, i) => `<text x="${x}" y="${y + i * 14}" ${attrs}>${esc(line)}</text>`).join('\n');
}

/**
 * One panel: axes, ticks, and a polyline per series (cut at `series.end`), its markers,
 * and a cross where a series stops at a call over the window.
 */
function panel({ x, y, w, h, series, turns, max, label, extra = '' }) {
  const out = [];
  const step = tickStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const px = (t) => x + (turns <= 1 ? 0 : (t / (turns - 1)) * w);
  const py = (v) => y + h - (Math.min(v, top) / top) * h;
  for (let v = 0; v <= top + step / 2; v += step) {
    const yy = py(v).toFixed(1);
    out.push(`<line x1="${x}" y1="${yy}" x2="${x + w}" y2="${yy}" ${GRID}/>`);
    out.push(`<text x="${x - 6}" y="${yy}" ${TICK} text-anchor="end" dominant-baseline="middle">${esc(label(v))}</text>`);
  }
  // Turn numbers at most every 40 px, so they never touch on a narrow chart.
  let tstep = tickStep(turns);
  while (turns > 1 && (tstep / (turns - 1)) * w < 40) tstep *= 2;
  for (let t = 0; t < turns; t += tstep) out.push(`<text x="${px(t).toFixed(1)}" y="${y + h + 14}" ${TICK} text-anchor="middle">${t + 1}</text>`);
  out.push(extra ? extra(py, top) : '');
  // Markers every `every` turns, each series on its own turns (offset by its index).
  const every = Math.max(series.length, Math.ceil(turns / 8));
  series.forEach((s, i) => {
    const style = seriesStyle(i);
    const end = s.end === undefined ? s.values.length : s.end;
    const points = s.values.slice(0, end).map((v, t) => `${px(t).toFixed(1)},${py(v).toFixed(1)}`).join(' ');
    const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : '';
    out.push(`<polyline fill="none" stroke="${style.color}" stroke-width="2"${dash} stroke-linejoin="round" points="${points}"><title>${esc(s.label)}</title></polyline>`);
    for (let t = Math.floor((i * every) / series.length); t < end; t += every) out.push(marker(style, px(t), py(s.values[t])));
    if (end < s.values.length && end > 0) {
      // The first turn over the window, at the cost reached before it: never billed.
      const [x0, x1, yy] = [px(end - 1).toFixed(1), px(end).toFixed(1), py(s.values[end - 1]).toFixed(1)];
      out.push(`<line x1="${x0}" y1="${yy}" x2="${x1}" y2="${yy}" stroke="${style.color}" stroke-width="1" stroke-dasharray="1 2"/>`);
      out.push(marker({ marker: 'cross', color: style.color }, px(end), py(s.values[end - 1]), 4.5));
    }
  });
  out.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" ${FRAME}/>`);
  return out.join('\n');
}

/**
 * The chart of a simulate() report, as SVG text (a standalone document). Its text is 11 px
 * at the width asked for: draw it at the width it is shown at (a page redraws it when its
 * container's width changes) rather than scaling it.
 * Ownership: reads `report`, keeps nothing; returns a new string.
 * @param {{turns: number, window: number, provider: string, model: string,
 *   results: {label: string, perTurn: {context: number, cumulativeUsd: number}[]}[]}} report
 * @param {{width?: number, title?: string, legend?: boolean}} [options] `title: ''` draws
 *   none; `legend: false` leaves the legend to the page (seriesStyle() gives its keys)
 * @returns {string}
 */
export function simulationChart(report, options = {}) {
  const width = Math.max(240, options.width || 760);
  const legend = options.legend !== false;
  const x = 56, w = width - x - 16, h = 190;
  const turns = Math.max(1, report.turns);
  const over = report.results.map((r) => r.perTurn.findIndex((p) => p.context > report.window));
  // The window is on the scale once a policy comes within half of it; below that the
  // curves would be flat along the bottom, so the scale follows the data.
  const dataMax = Math.max(1, ...report.results.flatMap((r) => r.perTurn.map((p) => p.context)));
  const showWindow = dataMax > report.window / 2;
  const contextMax = showWindow ? Math.max(report.window, dataMax) : dataMax;
  // The cost axis covers what was billed: a policy's calls up to its first over the window.
  const billed = (r, i) => r.perTurn.slice(0, over[i] < 0 ? r.perTurn.length : over[i]);
  const costMax = Math.max(0, ...report.results.flatMap((r, i) => billed(r, i).map((p) => p.cumulativeUsd)));
  const title = options.title ?? `midfold simulate: ${report.turns} turns, ${report.provider} ${report.model}`;
  const anyOver = over.some((t) => t >= 0);
  const windowBand = (py, top) => {
    const yw = py(report.window);
    const band = `<rect x="${x}" y="${py(top).toFixed(1)}" width="${w}" height="${(yw - py(top)).toFixed(1)}" fill="${OVER}" fill-opacity="0.07"/>`;
    return band + `<line x1="${x}" y1="${yw.toFixed(1)}" x2="${x + w}" y2="${yw.toFixed(1)}" ${WINDOW}/>`
      + `<text x="${x + w - 4}" y="${(yw - 4).toFixed(1)}" ${TICK} text-anchor="end">window ${esc(tokensLabel(report.window))}</text>`;
  };
  const parts = [];
  let y = 6;
  if (title) {
    const lines = wrap(title, width - x);
    parts.push(textLines(x, y + 14, lines, TITLE));
    y += lines.length * 14 + 6;
  }
  const contextTitle = wrap(`context sent per turn (tokens)${showWindow ? '' : `; the window, ${tokensLabel(report.window)}, is above the scale`}`, w);
  const costTitle = wrap(`cumulative input cost (USD, summaries included)${anyOver ? '; ✕: the first turn over the window, refused' : ''}`, w);
  parts.push(textLines(x, y + 14, contextTitle, TITLE));
  y += contextTitle.length * 14 + 8;
  parts.push(panel({ x, y, w, h, turns, max: contextMax, label: tokensLabel,
    series: report.results.map((r) => ({ label: r.label, values: r.perTurn.map((p) => p.context) })), extra: showWindow ? windowBand : '' }));
  y += h + 24;
  parts.push(textLines(x, y + 14, costTitle, TITLE));
  y += costTitle.length * 14 + 8;
  parts.push(panel({ x, y, w, h, turns, max: costMax, label: usdLabel,
    series: report.results.map((r, i) => ({ label: r.label, values: r.perTurn.map((p) => p.cumulativeUsd), end: over[i] < 0 ? undefined : over[i] })) }));
  y += h + 30;
  parts.push(`<text x="${x + w / 2}" y="${y}" ${TICK} text-anchor="middle">turn</text>`);
  y += 10;
  if (legend) {
    y += 12;
    report.results.forEach((r, i) => {
      const style = seriesStyle(i);
      const total = r.perTurn.length ? r.perTurn[r.perTurn.length - 1].cumulativeUsd : 0;
      const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : '';
      const text = over[i] >= 0 ? `${r.label} (impossible: turn ${over[i] + 1} is over the window)` : `${r.label} (${usdLabel(total)})`;
      const lines = wrap(text, w - 36);
      parts.push(`<line x1="${x}" y1="${y - 4}" x2="${x + 28}" y2="${y - 4}" stroke="${style.color}" stroke-width="2"${dash}/>`);
      parts.push(marker(style, x + 14, y - 4));
      parts.push(textLines(x + 36, y, lines, LABEL));
      y += 4 + lines.length * 14;
    });
  }
  const height = Math.ceil(y + 4);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title || 'midfold simulate')}">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...parts,
    '</svg>',
  ].join('\n') + '\n';
}
