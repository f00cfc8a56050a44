/**
 * The report's charts as static SVG, drawn by plain functions (no charting library: vega and
 * vega-lite cost a run 0.7-0.85 s of CPU to load and render five small charts). Two layouts:
 *
 * - `rowChart`: one row per category (a bot, a pattern), one line per series within it (raw and
 *   luck-adjusted, A and B), a value axis across: dots or bars from 0, each with its 95% interval
 *   line, an optional dashed rule at 0; several panels with scales of their own (the diff's metrics).
 * - `columnChart`: groups of vertical bars (the rates per bot, the tai histogram), the value axis up.
 *
 * Axes take "nice" ticks (steps of 1, 2 or 5 × 10^k, `niceTicks`). Text is escaped; a long label is
 * cut with an ellipsis and keeps its full text in a <title>. The SVG's own <title> and <desc> carry
 * the chart's title and subtitle, with ids made from the chart's `id` (unique on a page). Every
 * coordinate is rounded to 0.01, so the bytes are a pure function of the input.
 *
 * Marks carry classes tests read back: `circle.dot`, `rect.bar`, `line.interval`, `line.rule`, the
 * ticks `text.tick` (x or y = the tick's position), each datum's marks in a `g.datum` whose <title>
 * names it.
 */

/** One value of one series in one category; `lo`/`hi` not finite: no interval line. A value not finite draws nothing. */
export interface Datum {
  readonly category: string;
  readonly series: string;
  readonly value: number;
  readonly lo: number;
  readonly hi: number;
}

/** A series: its key in the data, its legend label and its colour. */
export interface Series {
  readonly key: string;
  readonly label: string;
  readonly color: string;
}

/** What every chart has: an id (prefix of its element ids), a title, a subtitle, its series. */
interface ChartBase {
  readonly id: string;
  readonly title: string;
  readonly subtitle: string;
  readonly series: readonly Series[];
  /** Draw a legend of the series (where there are two kinds to tell apart). */
  readonly legend: boolean;
}

/** A panel of a row chart: its categories (rows, in order), data, axis title and number format. */
export interface Panel {
  readonly title?: string;
  readonly categories: readonly string[];
  readonly data: readonly Datum[];
  readonly axis: string;
  /** Values are fractions, shown as percentages. */
  readonly percent?: boolean;
}

export interface RowChart extends ChartBase {
  readonly mark: 'dot' | 'bar';
  /** Height of one series' line within a row, px. */
  readonly step: number;
  /** A dashed rule at 0 (break-even, the field). */
  readonly zeroRule?: boolean;
  readonly panels: readonly Panel[];
}

export interface ColumnChart extends ChartBase {
  /** Groups, left to right; '\n' in a label breaks it into lines. */
  readonly categories: readonly string[];
  readonly data: readonly Datum[];
  readonly axis: string;
  readonly xTitle?: string;
  readonly percent?: boolean;
  /** Width of one bar, px. */
  readonly step: number;
  /** Height of the plot, px. */
  readonly height: number;
  /** Keep groups `step` wide and label every k-th (a long histogram), rather than widen groups to their labels. */
  readonly thinLabels?: boolean;
}

/** Ten distinct colours (Tableau 10, as vega-lite's default), for series coloured by bot. */
export const PALETTE = ['#4c78a8', '#f58518', '#e45756', '#72b7b2', '#54a24b', '#eeca3b', '#b279a2', '#ff9da6', '#9d755d', '#bab0ac'] as const;

const PAD = 8;
const PLOT_W = 420;
const LABEL_MAX = 160;
/** Average advance of a character at 11 px sans-serif (a safe over-estimate for Latin text). */
const CHAR_W = 6.2;
const TITLE_FONT = 14;
const FONT = 11;

export const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** A coordinate, rounded to 0.01 (no "-0"). */
function c(x: number): string {
  const r = Math.round(x * 100) / 100;
  return String(r === 0 ? 0 : r);
}

/** Estimated width in px of `text` at 11 px. */
const textWidth = (text: string, size = FONT): number => (text.length * CHAR_W * size) / FONT;

/** `<text>`, cut to `maxWidth` with an ellipsis and the full text in a <title> when longer. */
function label(text: string, maxWidth: number, attrs: string): string {
  const fits = Math.max(1, Math.floor(maxWidth / CHAR_W));
  if (text.length <= fits) return `<text ${attrs}>${escapeXml(text)}</text>`;
  return `<text ${attrs}><title>${escapeXml(text)}</title>${escapeXml(`${text.slice(0, Math.max(1, fits - 1)).trimEnd()}…`)}</text>`;
}

/** Words of `text` in lines no wider than `width` px. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && textWidth(`${line} ${word}`) > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** Axis ticks: a domain widened to whole steps of 1, 2 or 5 × 10^k, about `count` of them. */
export interface Ticks {
  readonly lo: number;
  readonly hi: number;
  readonly step: number;
  readonly values: readonly number[];
  /** Decimals a tick label needs (of the value, or of its percentage). */
  readonly decimals: number;
}

/**
 * Nice ticks covering [lo, hi]: the step is 1, 2 or 5 × 10^k, chosen so that about `count` steps
 * span the range, and the domain is widened to whole steps. An empty range (all values equal)
 * is widened around its value first; non-finite bounds give [0, 1].
 */
export function niceTicks(lo: number, hi: number, count = 5, percent = false): Ticks {
  if (!finite(lo) || !finite(hi)) [lo, hi] = [0, 1];
  if (lo > hi) [lo, hi] = [hi, lo];
  if (lo === hi) {
    [lo, hi] = lo === 0 ? [0, 1] : [lo - Math.abs(lo) / 2, hi + Math.abs(hi) / 2];
  }
  const raw = (hi - lo) / count;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  const step = (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
  const shown = percent ? step * 100 : step;
  const decimals = Math.max(0, -Math.floor(Math.log10(shown) + 1e-9));
  // k × step rounded to the step's decimals (0.1 × 3 is 0.30000000000000004), widened until it covers.
  const at = (k: number): number => Number((k * step).toFixed(decimals + (percent ? 2 : 0)));
  let k0 = Math.round(lo / step);
  if (at(k0) > lo) k0--;
  let k1 = Math.round(hi / step);
  if (at(k1) < hi) k1++;
  const values: number[] = [];
  for (let k = k0; k <= k1; k++) values.push(at(k));
  return { lo: values[0]!, hi: values.at(-1)!, step, values, decimals };
}

/** A tick label: fixed decimals, percentages with '%', a true minus sign. */
function tickText(x: number, t: Ticks, percent: boolean): string {
  const s = percent ? `${(x * 100).toFixed(t.decimals)}%` : x.toFixed(t.decimals);
  return s.replace(/^-/, '−').replace(/^−(0(\.0*)?%?)$/, '$1');
}

/** A value in a mark's <title>. */
function valueText(x: number, percent: boolean): string {
  if (percent) return `${(x * 100).toFixed(1)}%`;
  const a = Math.abs(x);
  return x.toFixed(a >= 100 ? 1 : a >= 1 ? 2 : 3);
}

function datumTitle(d: Datum, series: readonly Series[], percent: boolean): string {
  const s = series.find((x) => x.key === d.series);
  const interval = finite(d.lo) && finite(d.hi) ? ` [${valueText(d.lo, percent)}, ${valueText(d.hi, percent)}]` : '';
  return `${d.category}${series.length > 1 && s ? `, ${s.label}` : ''}: ${valueText(d.value, percent)}${interval}`;
}

/** The smallest and largest of the values and interval ends (and 0). */
function extent(data: readonly Datum[]): [number, number] {
  let lo = 0;
  let hi = 0;
  for (const d of data) {
    for (const x of [d.value, d.lo, d.hi]) {
      if (finite(x)) {
        lo = Math.min(lo, x);
        hi = Math.max(hi, x);
      }
    }
  }
  return [lo, hi];
}

/** Title, subtitle and legend at the top; returns the SVG and the y where the plot may start. */
function header(chart: ChartBase, width: number, marker: 'dot' | 'bar'): { svg: string[]; y: number } {
  const svg = [`<text class="title" x="${PAD}" y="${PAD + TITLE_FONT}" font-size="${TITLE_FONT}" font-weight="bold">${escapeXml(chart.title)}</text>`];
  let y = PAD + TITLE_FONT;
  for (const line of wrap(chart.subtitle, width - 2 * PAD)) {
    y += 15;
    svg.push(`<text class="subtitle" x="${PAD}" y="${y}" fill="#555">${escapeXml(line)}</text>`);
  }
  if (chart.legend) {
    y += 18;
    let x = PAD;
    svg.push('<g class="legend">');
    for (const s of chart.series) {
      const w = 16 + Math.min(textWidth(s.label), 140) + 14;
      if (x > PAD && x + w > width - PAD) {
        x = PAD;
        y += 16;
      }
      const swatch = marker === 'dot' ? `<circle cx="${c(x + 5)}" cy="${c(y - 4)}" r="5" fill="${s.color}"/>` : `<rect x="${c(x)}" y="${c(y - 9)}" width="10" height="10" fill="${s.color}"/>`;
      svg.push(`<g class="legend-item">${swatch}${label(s.label, 140, `x="${c(x + 16)}" y="${c(y)}"`)}</g>`);
      x += w;
    }
    svg.push('</g>');
  }
  return { svg, y: y + 14 };
}

/** The outer <svg> with its accessible title and description. */
function wrapSvg(chart: ChartBase, width: number, height: number, body: readonly string[]): string {
  const t = escapeXml(`${chart.id}-title`);
  const d = escapeXml(`${chart.id}-desc`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="${c(width)}" height="${c(height)}" viewBox="0 0 ${c(width)} ${c(height)}" role="img" aria-labelledby="${t} ${d}" font-family="sans-serif" font-size="${FONT}">` +
    `<title id="${t}">${escapeXml(chart.title)}</title><desc id="${d}">${escapeXml(chart.subtitle)}</desc>` +
    `<rect width="100%" height="100%" fill="white"/>${body.join('')}</svg>`
  );
}

/** Rows of dots or bars with interval lines against a horizontal value axis (see the module's comment). */
export function rowChart(chart: RowChart): string {
  const lines = Math.max(1, chart.series.length);
  const band = chart.step * lines + 6;
  const longest = Math.max(0, ...chart.panels.flatMap((p) => p.categories.map((k) => textWidth(k))));
  const labelW = Math.min(LABEL_MAX, longest) + 10;
  const x0 = PAD + labelW;
  const width = x0 + PLOT_W + 24;
  const head = header(chart, width, chart.mark);
  const svg = head.svg;
  let y = head.y;
  for (const [pi, panel] of chart.panels.entries()) {
    if (panel.title !== undefined) {
      y += 14;
      svg.push(`<text class="panel-title" x="${PAD}" y="${c(y)}" font-size="12" font-weight="bold">${escapeXml(panel.title)}</text>`);
      y += 6;
    }
    const percent = panel.percent === true;
    const [lo, hi] = extent(panel.data);
    const t = niceTicks(lo, hi, 6, percent);
    const sx = (v: number): number => x0 + ((v - t.lo) / (t.hi - t.lo)) * PLOT_W;
    const top = y;
    const h = Math.max(1, panel.categories.length) * band;
    svg.push(`<g class="panel" data-panel="${pi}">`);
    for (const v of t.values) svg.push(`<line class="grid" x1="${c(sx(v))}" x2="${c(sx(v))}" y1="${c(top)}" y2="${c(top + h)}" stroke="#e4e4e4"/>`);
    if (chart.zeroRule) svg.push(`<line class="rule" x1="${c(sx(0))}" x2="${c(sx(0))}" y1="${c(top)}" y2="${c(top + h)}" stroke="#999" stroke-dasharray="4,3"/>`);
    for (const [i, category] of panel.categories.entries()) {
      const rowTop = top + i * band + 3;
      svg.push(label(category, LABEL_MAX, `class="category" x="${c(x0 - 6)}" y="${c(rowTop + (chart.step * lines) / 2 + 4)}" text-anchor="end"`));
      for (const [j, s] of chart.series.entries()) {
        const d = panel.data.find((x) => x.category === category && x.series === s.key);
        if (!d || !finite(d.value)) continue;
        const cy = rowTop + (j + 0.5) * chart.step;
        const marks: string[] = [];
        if (chart.mark === 'bar') {
          const a = sx(Math.min(0, d.value));
          const b = sx(Math.max(0, d.value));
          marks.push(`<rect class="bar" x="${c(a)}" y="${c(cy - chart.step * 0.4)}" width="${c(b - a)}" height="${c(chart.step * 0.8)}" fill="${s.color}"/>`);
        }
        if (finite(d.lo) && finite(d.hi)) {
          const stroke = chart.mark === 'dot' ? `stroke="${s.color}" stroke-width="2"` : 'stroke="black" stroke-width="1.5"';
          marks.push(`<line class="interval" x1="${c(sx(d.lo))}" x2="${c(sx(d.hi))}" y1="${c(cy)}" y2="${c(cy)}" ${stroke}/>`);
        }
        if (chart.mark === 'dot') marks.push(`<circle class="dot" cx="${c(sx(d.value))}" cy="${c(cy)}" r="4.5" fill="${s.color}"/>`);
        svg.push(`<g class="datum"><title>${escapeXml(datumTitle(d, chart.series, percent))}</title>${marks.join('')}</g>`);
      }
    }
    const axisY = top + h;
    svg.push(`<g class="x-axis"><line x1="${c(x0)}" x2="${c(x0 + PLOT_W)}" y1="${c(axisY)}" y2="${c(axisY)}" stroke="#888"/>`);
    for (const v of t.values) {
      svg.push(`<line x1="${c(sx(v))}" x2="${c(sx(v))}" y1="${c(axisY)}" y2="${c(axisY + 5)}" stroke="#888"/>`);
      svg.push(`<text class="tick" x="${c(sx(v))}" y="${c(axisY + 16)}" text-anchor="middle">${escapeXml(tickText(v, t, percent))}</text>`);
    }
    y = axisY + 20;
    if (panel.axis) {
      y += 14;
      svg.push(`<text class="axis-title" x="${c(x0 + PLOT_W / 2)}" y="${c(y)}" text-anchor="middle" font-size="12">${escapeXml(panel.axis)}</text>`);
    }
    svg.push('</g></g>');
    y += 6;
  }
  return wrapSvg(chart, width, y + PAD, svg);
}

/** Groups of vertical bars with interval lines against a vertical value axis (see the module's comment). */
export function columnChart(chart: ColumnChart): string {
  const lines = Math.max(1, chart.series.length);
  const percent = chart.percent === true;
  const [lo, hi] = extent(chart.data);
  const t = niceTicks(lo, hi, 5, percent);
  const labelLines = chart.categories.map((k) => k.split('\n'));
  const widest = Math.max(0, ...labelLines.flat().map((l) => textWidth(l)));
  const barsW = chart.step * lines;
  // A group is at least as wide as its label, or (thinLabels: a long histogram) every k-th label is shown.
  const groupW = chart.thinLabels ? barsW : Math.max(barsW + (lines > 1 ? 8 : 0), widest + 10);
  const every = Math.max(1, Math.ceil((widest + 6) / groupW));
  const tickW = Math.max(...t.values.map((v) => textWidth(tickText(v, t, percent))));
  const x0 = PAD + 24 + tickW + 10;
  const plotW = groupW * chart.categories.length;
  const width = Math.max(x0 + plotW + PAD + 10, 360);
  const head = header(chart, width, 'bar');
  const svg = head.svg;
  const top = head.y;
  const sy = (v: number): number => top + chart.height - ((v - t.lo) / (t.hi - t.lo)) * chart.height;
  for (const v of t.values) {
    svg.push(`<line class="grid" x1="${c(x0)}" x2="${c(x0 + plotW)}" y1="${c(sy(v))}" y2="${c(sy(v))}" stroke="#e4e4e4"/>`);
  }
  svg.push(`<g class="y-axis"><line x1="${c(x0)}" x2="${c(x0)}" y1="${c(top)}" y2="${c(top + chart.height)}" stroke="#888"/>`);
  for (const v of t.values) {
    svg.push(`<line x1="${c(x0 - 5)}" x2="${c(x0)}" y1="${c(sy(v))}" y2="${c(sy(v))}" stroke="#888"/>`);
    svg.push(`<text class="tick" x="${c(x0 - 7)}" y="${c(sy(v))}" dy="4" text-anchor="end">${escapeXml(tickText(v, t, percent))}</text>`);
  }
  const mid = top + chart.height / 2;
  svg.push(`<text class="axis-title" x="${PAD + 8}" y="${c(mid)}" transform="rotate(-90 ${PAD + 8} ${c(mid)})" text-anchor="middle" font-size="12">${escapeXml(chart.axis)}</text></g>`);
  const base = top + chart.height;
  for (const [i, category] of chart.categories.entries()) {
    const gx = x0 + i * groupW + (groupW - barsW) / 2;
    for (const [j, s] of chart.series.entries()) {
      const d = chart.data.find((x) => x.category === category && x.series === s.key);
      if (!d || !finite(d.value)) continue;
      const bx = gx + j * chart.step;
      const a = sy(Math.max(0, d.value));
      const b = sy(Math.min(0, d.value));
      const marks = [`<rect class="bar" x="${c(bx + 1)}" y="${c(a)}" width="${c(chart.step - 2)}" height="${c(b - a)}" fill="${s.color}"/>`];
      if (finite(d.lo) && finite(d.hi)) marks.push(`<line class="interval" x1="${c(bx + chart.step / 2)}" x2="${c(bx + chart.step / 2)}" y1="${c(sy(d.lo))}" y2="${c(sy(d.hi))}" stroke="black" stroke-width="1.5"/>`);
      svg.push(`<g class="datum"><title>${escapeXml(datumTitle({ ...d, category: category.replace(/\n/g, ' ') }, chart.series, percent))}</title>${marks.join('')}</g>`);
    }
  }
  svg.push(`<g class="x-axis"><line x1="${c(x0)}" x2="${c(x0 + plotW)}" y1="${c(sy(Math.max(t.lo, Math.min(t.hi, 0))))}" y2="${c(sy(Math.max(t.lo, Math.min(t.hi, 0))))}" stroke="#888"/>`);
  for (const [i, ls] of labelLines.entries()) {
    if (i % every !== 0) continue;
    const cx = x0 + (i + 0.5) * groupW;
    const tspans = ls.map((l, k) => `<tspan x="${c(cx)}" dy="${k === 0 ? 0 : 13}">${escapeXml(l)}</tspan>`).join('');
    svg.push(`<text class="category" x="${c(cx)}" y="${c(base + 15)}" text-anchor="middle">${tspans}</text>`);
  }
  let y = base + 15 + 13 * (Math.max(1, ...labelLines.map((l) => l.length)) - 1);
  if (chart.xTitle) {
    y += 18;
    svg.push(`<text class="axis-title" x="${c(x0 + plotW / 2)}" y="${c(y)}" text-anchor="middle" font-size="12">${escapeXml(chart.xTitle)}</text>`);
  }
  svg.push('</g>');
  return wrapSvg(chart, width, y + PAD + 4, svg);
}
