/**
 * simulate/chart.js — a small SVG of a simulate() report: context size per turn (with
 * the window) and cumulative cost per turn, one line per policy. Hand-written SVG text,
 * no dependency, so the CLI (--chart) and the demo page draw the same picture. Styling is
 * in presentation attributes, not a <style> element, so a page with a strict CSP
 * (style-src 'self') can show it inline too.
 */

const COLORS = ['#6b7280', '#dc2626', '#d97706', '#7c3aed', '#0891b2', '#16a34a', '#db2777', '#2563eb', '#65a30d', '#9333ea'];

// Presentation attributes of each kind of element.
// Whole literals, not templates over a shared font string: a bundler keeps a top-level
// template (it may call toString), so every page importing midfold would carry these.
const TITLE = 'font-family="system-ui, sans-serif" font-size="11" font-weight="600" fill="#111827"';
const TICK = 'font-family="system-ui, sans-serif" font-size="11" fill="#6b7280"';
const LABEL = 'font-family="system-ui, sans-serif" font-size="11" fill="#374151"';
const GRID = 'stroke="#e5e7eb"';
const FRAME = 'fill="none" stroke="#9ca3af"';
const WINDOW = 'stroke="#111827" stroke-dasharray="4 3"';

function esc(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
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

/** One panel: axes, ticks, and a polyline per series. */
function panel({ x, y, w, h, title, series, turns, max, label, extra = '' }) {
  const out = [];
  const step = tickStep(max);
  const top = Math.max(step, Math.ceil(max / step) * step);
  const px = (t) => x + (turns <= 1 ? 0 : (t / (turns - 1)) * w);
  const py = (v) => y + h - (v / top) * h;
  out.push(`<text x="${x}" y="${y - 8}" ${TITLE}>${esc(title)}</text>`);
  for (let v = 0; v <= top + step / 2; v += step) {
    const yy = py(v).toFixed(1);
    out.push(`<line x1="${x}" y1="${yy}" x2="${x + w}" y2="${yy}" ${GRID}/>`);
    out.push(`<text x="${x - 6}" y="${yy}" ${TICK} text-anchor="end" dominant-baseline="middle">${esc(label(v))}</text>`);
  }
  const tstep = tickStep(turns);
  for (let t = 0; t < turns; t += tstep) out.push(`<text x="${px(t).toFixed(1)}" y="${y + h + 14}" ${TICK} text-anchor="middle">${t + 1}</text>`);
  out.push(extra ? extra(py) : '');
  series.forEach((s, i) => {
    const points = s.values.map((v, t) => `${px(t).toFixed(1)},${py(v).toFixed(1)}`).join(' ');
    out.push(`<polyline fill="none" stroke="${COLORS[i % COLORS.length]}" stroke-width="1.6" points="${points}"><title>${esc(s.label)}</title></polyline>`);
  });
  out.push(`<rect x="${x}" y="${y}" width="${w}" height="${h}" ${FRAME}/>`);
  return out.join('\n');
}

/**
 * The chart of a simulate() report, as SVG text (a standalone document).
 * Ownership: reads `report`, keeps nothing; returns a new string.
 * @param {{turns: number, window: number, provider: string, model: string,
 *   results: {label: string, perTurn: {context: number, cumulativeUsd: number}[]}[]}} report
 * @param {{width?: number, title?: string}} [options]
 * @returns {string}
 */
export function simulationChart(report, options = {}) {
  const width = options.width || 760;
  const legendRows = report.results.length;
  const height = 560 + legendRows * 18;
  const x = 64, w = width - x - 24, h = 190;
  const turns = Math.max(1, report.turns);
  // The window is on the scale once a policy comes within half of it; below that the
  // curves would be flat along the bottom, so the scale follows the data.
  const dataMax = Math.max(1, ...report.results.flatMap((r) => r.perTurn.map((p) => p.context)));
  const showWindow = dataMax > report.window / 2;
  const contextMax = showWindow ? Math.max(report.window, dataMax) : dataMax;
  const costMax = Math.max(0, ...report.results.map((r) => (r.perTurn.length ? r.perTurn[r.perTurn.length - 1].cumulativeUsd : 0)));
  const title = options.title || `midfold simulate: ${report.turns} turns, ${report.provider} ${report.model}`;
  const windowLine = (py) => `<line x1="${x}" y1="${py(report.window).toFixed(1)}" x2="${x + w}" y2="${py(report.window).toFixed(1)}" ${WINDOW}/>`
    + `<text x="${x + w - 4}" y="${(py(report.window) - 4).toFixed(1)}" ${TICK} text-anchor="end">window ${esc(tokensLabel(report.window))}</text>`;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(title)}">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${x}" y="20" ${TITLE}>${esc(title)}</text>`,
    panel({ x, y: 56, w, h, turns, max: contextMax, label: tokensLabel,
      title: `context sent per turn (tokens)${showWindow ? '' : `; the window, ${tokensLabel(report.window)}, is above the scale`}`,
      series: report.results.map((r) => ({ label: r.label, values: r.perTurn.map((p) => p.context) })), extra: showWindow ? windowLine : '' }),
    panel({ x, y: 56 + h + 62, w, h, title: 'cumulative input cost (USD, summaries included)', turns, max: costMax, label: usdLabel,
      series: report.results.map((r) => ({ label: r.label, values: r.perTurn.map((p) => p.cumulativeUsd) })) }),
    `<text x="${x + w / 2}" y="${56 + 2 * h + 62 + 30}" ${TICK} text-anchor="middle">turn</text>`,
  ];
  const ly = 56 + 2 * h + 62 + 52;
  report.results.forEach((r, i) => {
    const lx = x, yy = ly + i * 18;
    const total = r.perTurn.length ? r.perTurn[r.perTurn.length - 1].cumulativeUsd : 0;
    parts.push(`<line x1="${lx}" y1="${yy - 4}" x2="${lx + 18}" y2="${yy - 4}" stroke="${COLORS[i % COLORS.length]}" stroke-width="3"/>`);
    parts.push(`<text x="${lx + 24}" y="${yy}" ${LABEL}>${esc(`${r.label} (${usdLabel(total)})`)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
