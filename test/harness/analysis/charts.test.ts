/**
 * The report's SVG charts (charts.ts, drawn by report.ts's chart functions): the ticks are nice
 * and cover the data; each mark sits where its value says, read back from the SVG's coordinates
 * through the axis' own tick labels (a dot at the mean, an interval line from lo to hi, bars from 0
 * with lengths proportional to their values); missing intervals draw no line; one bot, many bots,
 * negative and all-equal values; names that need escaping or are too long; ids and bytes.
 */
import { describe, expect, it } from 'vitest';
import { columnChart, niceTicks, rowChart } from '../../../src/harness/analysis/charts.js';
import type { DiffReportInput } from '../../../src/harness/analysis/report.js';
import { diffBotsChart, diffPatternsChart, leagueChart, patternsChart, pointsChart, ratesChart, taiBins, taiChart } from '../../../src/harness/analysis/report.js';
import type { LeagueSummary } from '../../../src/harness/analysis/league.js';
import type { Estimate } from '../../../src/harness/analysis/stats.js';
import type { ArmSummary } from '../../../src/harness/analysis/summary.js';

type Attrs = Record<string, string>;
const unescape = (s: string): string => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
const attrs = (s: string): Attrs => Object.fromEntries([...s.matchAll(/([\w:-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
const num = (a: Attrs, k: string): number => Number(a[k]);

/** Every element with `class="cls"` (its attributes). */
function elements(svg: string, cls: string): Attrs[] {
  return [...svg.matchAll(new RegExp(`<\\w+ class="${cls}"([^>]*?)/?>`, 'g'))].map((m) => attrs(m[1]!));
}

/** Each datum's marks, by the text of its <title>. */
function data(svg: string): Map<string, { dot?: Attrs; bar?: Attrs; interval?: Attrs }> {
  const out = new Map<string, { dot?: Attrs; bar?: Attrs; interval?: Attrs }>();
  for (const m of svg.matchAll(/<g class="datum"><title>([^<]*)<\/title>(.*?)<\/g>/g)) {
    const one = (cls: string): Attrs | undefined => elements(m[2]!, cls)[0];
    out.set(unescape(m[1]!), { dot: one('dot'), bar: one('bar'), interval: one('interval') });
  }
  return out;
}

/**
 * The value → position map of one axis, from its tick labels ('−' a minus, '%' a percentage): the
 * ticks must be evenly spaced in value and position, so two of them define it.
 */
function scale(svg: string, coord: 'x' | 'y', panel = 0): (v: number) => number {
  const body = panel === 0 ? svg : svg.split('<g class="panel"')[panel + 1]!;
  const start = body.indexOf(coord === 'x' ? 'class="x-axis"' : 'class="y-axis"');
  const axis = body.slice(start, body.indexOf('</g>', start));
  const ticks = elements(axis, 'tick');
  const texts = [...axis.matchAll(/<text class="tick"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]!);
  expect(ticks.length, 'ticks').toBeGreaterThanOrEqual(2);
  const values = texts.map((t) => (t.endsWith('%') ? Number(t.slice(0, -1).replace('−', '-')) / 100 : Number(t.replace('−', '-'))));
  const pos = ticks.map((a) => num(a, coord));
  const per = (pos[1]! - pos[0]!) / (values[1]! - values[0]!);
  for (let i = 1; i < values.length; i++) expect(pos[i]! - pos[0]!, `tick ${texts[i]}`).toBeCloseTo((values[i]! - values[0]!) * per, 1);
  return (v) => pos[0]! + (v - values[0]!) * per;
}

/** A minimal well-formedness check: tags balance, attributes are quoted, no stray '<' or '&'. */
function wellFormed(svg: string): void {
  const stack: string[] = [];
  const tokens = svg.split(/(<[^>]*>)/).filter((t) => t !== '');
  for (const t of tokens) {
    if (t.startsWith('<')) {
      const m = /^<(\/?)([\w:-]+)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>$/.exec(t);
      expect(m, `malformed tag ${t}`).not.toBeNull();
      if (m![1]) expect(stack.pop(), t).toBe(m![2]);
      else if (!m![4]) stack.push(m![2]!);
    } else {
      expect(t, 'text').not.toMatch(/<|&(?!(amp|lt|gt|quot);)/);
    }
  }
  expect(stack).toEqual([]);
}

const est = (mean: number, lo: number, hi: number): Estimate => ({ mean, lo, hi, se: (hi - lo) / 3.92, df: 9, estimator: 'clustered-t' });
const bot = (name: string, mean: number, lo: number, hi: number, adj?: Estimate) =>
  ({ bot: name, hands: 100, pointsPerHand: est(mean, lo, hi), ...(adj ? { pointsPerHandAdjusted: adj } : {}), winRate: est(0.3, 0.25, 0.35), dealInRate: est(0.1, 0.08, 0.12), selfDrawShare: est(0.4, 0.3, 0.5) }) as unknown;
const arm = (bots: unknown[], patterns: unknown[] = []): ArmSummary => ({ arm: 0, profile: 'p', hands: 100, deals: 25, bots, patterns, paired: [] }) as unknown as ArmSummary;

describe('niceTicks', () => {
  it('steps by 1, 2 or 5 × 10^k, covers the range with a handful of ticks, whatever the range', () => {
    expect(niceTicks(-2.19, 1.07)).toMatchObject({ lo: -2.5, hi: 1.5, step: 0.5 });
    expect(niceTicks(0, 436).values).toEqual([0, 100, 200, 300, 400, 500]);
    expect(niceTicks(0, 0.36, 5, true)).toMatchObject({ lo: 0, hi: 0.4, step: 0.05, decimals: 0 });
    expect(niceTicks(0, 0.036, 5, true)).toMatchObject({ step: 0.005, decimals: 1 });
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      const a = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 12 - 6);
      const b = a + rnd() * 10 ** Math.floor(rnd() * 12 - 6);
      const t = niceTicks(a, b);
      const mantissa = t.step / 10 ** Math.floor(Math.log10(t.step) + 1e-9);
      expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6), `step ${t.step} for ${a}..${b}`).toBe(true);
      expect(t.lo).toBeLessThanOrEqual(a);
      expect(t.hi).toBeGreaterThanOrEqual(b);
      expect(t.values.length, `${a}..${b}`).toBeGreaterThanOrEqual(3);
      expect(t.values.length, `${a}..${b}`).toBeLessThanOrEqual(12);
    }
  });

  it('widens an empty range around its value', () => {
    expect(niceTicks(0, 0)).toMatchObject({ lo: 0, hi: 1 });
    const t = niceTicks(-3, -3);
    expect(t.lo).toBeLessThan(-3);
    expect(t.hi).toBeGreaterThan(-3);
    expect(niceTicks(NaN, 2)).toMatchObject({ lo: 0, hi: 1 });
  });
});

describe('the points chart', () => {
  const a = arm([bot('greedy', 1.2, 0.9, 1.5, est(1.1, 1.0, 1.2)), bot('random', -2.2, -2.4, -2.0, est(-2.1, -2.2, -2.0)), bot('value', 0.5, 0.2, 0.8, est(0.45, 0.3, 0.6))]);
  const svg = pointsChart(a, 'arm0-points');

  it('puts each dot at its mean and its line across its interval, raw and luck-adjusted on two lines of the bot’s row', () => {
    wellFormed(svg);
    const x = scale(svg, 'x');
    const d = data(svg);
    expect(d.size).toBe(6);
    for (const b of a.bots) {
      for (const [kind, e] of [['raw', b.pointsPerHand], ['luck-adjusted', b.pointsPerHandAdjusted!]] as const) {
        const m = d.get(`${b.bot}, ${kind}: ${e.mean.toFixed(e.mean <= -1 || e.mean >= 1 ? 2 : 3)} [${e.lo.toFixed(Math.abs(e.lo) >= 1 ? 2 : 3)}, ${e.hi.toFixed(Math.abs(e.hi) >= 1 ? 2 : 3)}]`);
        expect(m, `${b.bot} ${kind}: ${[...d.keys()].join(' | ')}`).toBeDefined();
        expect(num(m!.dot!, 'cx')).toBeCloseTo(x(e.mean), 1);
        expect(num(m!.interval!, 'x1')).toBeCloseTo(x(e.lo), 1);
        expect(num(m!.interval!, 'x2')).toBeCloseTo(x(e.hi), 1);
        expect(m!.interval!.y1).toBe(m!.dot!.cy);
      }
      const raw = [...d.entries()].find(([k]) => k.startsWith(`${b.bot}, raw`))![1];
      const adj = [...d.entries()].find(([k]) => k.startsWith(`${b.bot}, luck-adjusted`))![1];
      expect(num(adj.dot!, 'cy')).toBeGreaterThan(num(raw.dot!, 'cy'));
      expect(raw.dot!.fill).not.toBe(adj.dot!.fill);
    }
    // The bots' rows in order, top to bottom, each labelled.
    const cys = a.bots.map((b) => num([...d.entries()].find(([k]) => k.startsWith(`${b.bot}, raw`))![1].dot!, 'cy'));
    expect([...cys].sort((p, q) => p - q)).toEqual(cys);
    expect([...svg.matchAll(/<text class="category"[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual(['greedy', 'random', 'value']);
    // The dashed break-even rule at 0 and a legend of the two kinds.
    const rule = elements(svg, 'rule');
    expect(rule).toHaveLength(1);
    expect(num(rule[0]!, 'x1')).toBeCloseTo(x(0), 1);
    expect(rule[0]!['stroke-dasharray']).toBeDefined();
    expect(svg).toMatch(/<g class="legend">.*raw.*luck-adjusted.*<\/g><\/g>/);
  });

  it('draws no interval line where the interval is missing, and no dot where the mean is', () => {
    const nan = { mean: 0.5, lo: null, hi: null, se: null } as unknown as Estimate;
    const s = pointsChart(arm([bot('lone', 0.5, 0, 1), { ...(bot('short', 0, 0, 0) as object), pointsPerHand: nan }, { ...(bot('none', 0, 0, 0) as object), pointsPerHand: { mean: null, lo: null, hi: null } }]), 'c');
    wellFormed(s);
    const d = data(s);
    expect(d.get('lone: 0.500 [0.000, 1.00]')?.interval).toBeDefined();
    expect(d.get('short: 0.500')?.dot).toBeDefined();
    expect(d.get('short: 0.500')?.interval).toBeUndefined();
    expect([...d.keys()].some((k) => k.startsWith('none'))).toBe(false);
    expect(s).toContain('>none</text>'); // its row is still labelled
    expect(s).not.toContain('class="legend"'); // raw only: nothing to tell apart
  });

  it('takes one bot and many bots, each on a row of its own', () => {
    const one = pointsChart(arm([bot('solo', 0.2, 0.1, 0.3)]), 'c');
    wellFormed(one);
    expect(data(one).size).toBe(1);
    const many = arm(Array.from({ length: 40 }, (_, i) => bot(`bot${i}`, i - 20, i - 21, i - 19)));
    const s = pointsChart(many, 'c');
    wellFormed(s);
    const x = scale(s, 'x');
    const d = [...data(s).values()];
    expect(d).toHaveLength(40);
    d.forEach((m, i) => expect(num(m.dot!, 'cx')).toBeCloseTo(x(i - 20), 1));
    const cys = d.map((m) => num(m.dot!, 'cy'));
    for (let i = 1; i < cys.length; i++) expect(cys[i]! - cys[i - 1]!).toBeGreaterThanOrEqual(14);
    expect(num(attrs(/<svg([^>]*)>/.exec(s)![1]!), 'height')).toBeGreaterThan(cys.at(-1)!);
  });

  it('takes values all negative or all equal', () => {
    const s = pointsChart(arm([bot('a', -1, -1, -1), bot('b', -1, -1, -1)]), 'c');
    wellFormed(s);
    const x = scale(s, 'x');
    for (const m of data(s).values()) {
      expect(num(m.dot!, 'cx')).toBeCloseTo(x(-1), 1);
      expect(num(m.interval!, 'x1')).toBeCloseTo(num(m.interval!, 'x2'), 5);
    }
    const zero = pointsChart(arm([bot('z', 0, 0, 0)]), 'c');
    expect(num(data(zero).get('z: 0.000 [0.000, 0.000]')!.dot!, 'cx')).toBeCloseTo(scale(zero, 'x')(0), 1);
  });

  it('escapes names and cuts long ones, keeping the full name in a <title>', () => {
    const long = 'an-extremely-long-bot-name-that-goes-on-and-on';
    const s = pointsChart(arm([bot('a<b&"c', 0.1, 0, 0.2), bot(long, 0.3, 0.2, 0.4)]), 'x"<y');
    wellFormed(s);
    expect(s).not.toContain('a<b');
    expect(s).toContain('a&lt;b&amp;&quot;c');
    expect(s).toContain(`<title>${long}</title>`);
    const shown = /<text class="category"[^>]*><title>[^<]*<\/title>([^<]*)<\/text>/.exec(s)![1]!;
    expect(shown.endsWith('…')).toBe(true);
    expect(shown.length).toBeLessThan(long.length);
    expect(long.startsWith(shown.slice(0, -1))).toBe(true);
  });

  it('gives its ids the chart’s prefix, so charts on one page never share one, and is the same bytes every time', () => {
    const ids = (s: string): string[] => [...s.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!);
    const p = pointsChart(a, 'arm0-points');
    const q = pointsChart(a, 'arm1-points');
    expect(ids(p).length).toBeGreaterThan(0);
    expect(ids(p).every((i) => i.startsWith('arm0-points-'))).toBe(true);
    expect(ids(p).filter((i) => ids(q).includes(i))).toEqual([]);
    expect(p).toBe(svg);
    expect(/<svg[^>]*aria-labelledby="arm0-points-title arm0-points-desc"/.test(p)).toBe(true);
    expect(p).toContain('<title id="arm0-points-title">Points per seat-hand</title>');
    expect(p).not.toMatch(/<script|NaN|Infinity|undefined/);
  });
});

describe('the league chart', () => {
  it('ranks the bots best on top, each rating a dot with its interval', () => {
    const l = { ratings: [{ bot: 'b', rating: -0.5, lo: -0.7, hi: -0.3 }, { bot: 'a', rating: 0.5, lo: 0.3, hi: 0.7, adjusted: 0.4, adjustedLo: 0.35, adjustedHi: 0.45 }] } as unknown as LeagueSummary;
    const s = leagueChart(l, 'league');
    wellFormed(s);
    const x = scale(s, 'x');
    const d = data(s);
    expect(num(d.get('a, raw: 0.500 [0.300, 0.700]')!.dot!, 'cx')).toBeCloseTo(x(0.5), 1);
    expect(num(d.get('a, luck-adjusted: 0.400 [0.350, 0.450]')!.interval!, 'x2')).toBeCloseTo(x(0.45), 1);
    expect(num(d.get('b, raw: -0.500 [-0.700, -0.300]')!.interval!, 'x1')).toBeCloseTo(x(-0.7), 1);
    expect(num(d.get('a, raw: 0.500 [0.300, 0.700]')!.dot!, 'cy')).toBeLessThan(num(d.get('b, raw: -0.500 [-0.700, -0.300]')!.dot!, 'cy'));
  });
});

describe('bar charts', () => {
  it('patterns: bars from 0, lengths proportional to the frequencies, intervals from lo to hi', () => {
    const pats = [
      { pattern: 'self_draw', wins: 30, per1000Wins: est(300, 250, 350) },
      { pattern: 'seat_wind', wins: 10, per1000Wins: est(100, 60, 140) },
      { pattern: 'four_<kongs>', wins: 1, per1000Wins: { mean: 10, lo: null, hi: null } },
      { pattern: 'never', wins: 0, per1000Wins: est(0, 0, 5) },
    ];
    const s = patternsChart(arm([], pats), 'arm0-patterns');
    wellFormed(s);
    const x = scale(s, 'x');
    const d = data(s);
    expect([...d.keys()].map((k) => k.split(':')[0])).toEqual(['self_draw', 'seat_wind', 'four_<kongs>']);
    const bars = [...d.values()].map((m) => m.bar!);
    for (const [i, b] of bars.entries()) {
      expect(num(b, 'x')).toBeCloseTo(x(0), 1);
      expect(num(b, 'width') / pats[i]!.per1000Wins.mean).toBeCloseTo(num(bars[0]!, 'width') / 300, 2);
    }
    expect(num(d.get('self_draw: 300.0 [250.0, 350.0]')!.interval!, 'x2')).toBeCloseTo(x(350), 1);
    expect(d.get('four_<kongs>: 10.00')!.interval).toBeUndefined();
  });

  it('rates: a group per rate, a bar per bot from the axis at 0, heights proportional, intervals from lo to hi', () => {
    const a = arm([bot('greedy', 0, 0, 0), bot('random', 0, 0, 0)]);
    (a.bots[1] as { winRate: Estimate }).winRate = est(0.05, 0.01, 0.09);
    const s = ratesChart(a, 'arm0-rates');
    wellFormed(s);
    const y = scale(s, 'y');
    const d = data(s);
    expect(d.size).toBe(6);
    const g = d.get('win, greedy: 30.0% [25.0%, 35.0%]')!;
    const r = d.get('win, random: 5.0% [1.0%, 9.0%]')!;
    for (const [m, v] of [[g, 0.3], [r, 0.05]] as const) {
      expect(num(m.bar!, 'y') + num(m.bar!, 'height')).toBeCloseTo(y(0), 1);
      expect(num(m.bar!, 'y')).toBeCloseTo(y(v), 1);
    }
    expect(num(g.bar!, 'height') / num(r.bar!, 'height')).toBeCloseTo(6, 1);
    expect(num(r.interval!, 'y1')).toBeCloseTo(y(0.01), 1);
    expect(num(r.interval!, 'y2')).toBeCloseTo(y(0.09), 1);
    expect(num(g.bar!, 'x')).toBeLessThan(num(r.bar!, 'x'));
    expect(g.bar!.fill).not.toBe(r.bar!.fill);
    expect(s).toMatch(/<g class="legend">.*greedy.*random/);
    expect(s.slice(s.indexOf('class="y-axis"'))).toMatch(/class="tick"[^>]*>\d+%</);
  });

  it('rates: the group labels never meet, for one to twelve bots', () => {
    for (let n = 1; n <= 12; n++) {
      const s = ratesChart(arm(Array.from({ length: n }, (_, i) => bot(`bot${i}`, 0, 0, 0))), 'r');
      const labels = [...s.matchAll(/<text class="category" x="([\d.]+)"[^>]*>(.*?)<\/text>/g)].map((m) => ({ x: Number(m[1]), lines: [...m[2]!.matchAll(/<tspan[^>]*>([^<]*)<\/tspan>/g)].map((t) => t[1]!) }));
      expect(labels.map((l) => l.lines.join(' '))).toEqual(['win', 'deal-in', 'self-draw of wins']);
      const w = (l: { lines: string[] }): number => 6.2 * Math.max(...l.lines.map((t) => t.length));
      for (let i = 1; i < labels.length; i++) expect(labels[i]!.x - labels[i - 1]!.x, `${n} bots`).toBeGreaterThan((w(labels[i]!) + w(labels[i - 1]!)) / 2 + 4);
    }
  });

  it('tai: bar heights proportional to the shares; a long histogram labels every k-th bin, never overlapping', () => {
    const bins = taiBins(new Map([[0, 20], [1, 50], [3, 30]]));
    const s = taiChart(bins, 'arm0-tai');
    wellFormed(s);
    const y = scale(s, 'y');
    const d = data(s);
    expect(num(d.get('1: 50.0%')!.bar!, 'y')).toBeCloseTo(y(0.5), 1);
    expect(num(d.get('1: 50.0%')!.bar!, 'height') / num(d.get('0: 20.0%')!.bar!, 'height')).toBeCloseTo(2.5, 2);
    expect(num(d.get('2: 0.0%')!.bar!, 'height')).toBe(0);
    const wide = taiChart(taiBins(new Map(Array.from({ length: 120 }, (_, i) => [i, i + 1] as [number, number]))), 't');
    wellFormed(wide);
    const xs = [...wide.matchAll(/<text class="category" x="([\d.]+)"[^>]*><tspan[^>]*>([^<]*)</g)].map((m) => ({ x: Number(m[1]), text: m[2]! }));
    expect(xs.length).toBeGreaterThan(3);
    expect(xs.length).toBeLessThan(40);
    for (let i = 1; i < xs.length; i++) expect(xs[i]!.x - xs[i - 1]!.x).toBeGreaterThan(6.2 * Math.max(xs[i]!.text.length, xs[i - 1]!.text.length) + 4);
  });

  it('a column chart of negative values hangs its bars below 0', () => {
    const s = columnChart({ id: 'n', title: 't', subtitle: 's', series: [{ key: 'k', label: 'k', color: '#000' }], legend: false, categories: ['a', 'b'], data: [{ category: 'a', series: 'k', value: -2, lo: NaN, hi: NaN }, { category: 'b', series: 'k', value: -1, lo: -1.5, hi: -0.5 }], axis: 'v', step: 20, height: 100 });
    wellFormed(s);
    const y = scale(s, 'y');
    const d = data(s);
    expect(num(d.get('a: -2.00')!.bar!, 'y')).toBeCloseTo(y(0), 1);
    expect(num(d.get('a: -2.00')!.bar!, 'height')).toBeCloseTo(y(-2) - y(0), 1);
    expect(num(d.get('a: -2.00')!.bar!, 'height')).toBeCloseTo(2 * num(d.get('b: -1.00 [-1.50, -0.500]')!.bar!, 'height'), 1);
    expect(d.get('a: -2.00')!.interval).toBeUndefined();
  });
});

describe('the diff charts', () => {
  const e = est;
  it('bot metrics: a panel per metric with its own scale (rates in %), A and B bars per bot, negative values to the left of 0', () => {
    const bots: DiffReportInput['bots'] = [
      { profile: 'p', bot: 'greedy', metric: 'pointsPerHand', a: e(-1, -1.5, -0.5), b: e(2, 1.5, 2.5), change: e(3, 2, 4) },
      { profile: 'p', bot: 'greedy', metric: 'winRate', a: e(0.2, 0.18, 0.22), b: e(0.3, 0.28, 0.32), change: e(0.1, 0.05, 0.15) },
      { profile: 'p', bot: 'gone', metric: 'winRate', a: { mean: NaN } as Estimate, b: { mean: NaN } as Estimate, change: { mean: NaN } as Estimate },
    ];
    const s = diffBotsChart(bots, 'diff0-bots');
    wellFormed(s);
    expect([...s.matchAll(/<text class="panel-title"[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual(['points per seat-hand', 'win rate']);
    const x0 = scale(s, 'x', 0);
    const x1 = scale(s, 'x', 1);
    const d = data(s);
    const a = d.get('greedy, run A: -1.00 [-1.50, -0.500]')!.bar!;
    expect(num(a, 'x') + num(a, 'width')).toBeCloseTo(x0(0), 1);
    expect(num(a, 'x')).toBeCloseTo(x0(-1), 1);
    expect(num(d.get('greedy, run B: 2.00 [1.50, 2.50]')!.bar!, 'width')).toBeCloseTo(x0(2) - x0(0), 1);
    expect(num(d.get('greedy, run B: 30.0% [28.0%, 32.0%]')!.interval!, 'x2')).toBeCloseTo(x1(0.32), 1);
    expect(s.split('<g class="panel"')[2]).toMatch(/class="tick"[^>]*>\d+%</);
    expect(s).not.toContain('gone');
  });

  it('patterns: A and B bars side by side per pattern', () => {
    const rows: DiffReportInput['patterns'] = [{ profile: 'p', pattern: 'self_draw', a: e(300, 250, 350), b: e(150, 120, 180), change: e(-150, -200, -100), winsA: 30, winsB: 15 }];
    const s = diffPatternsChart(rows, 'diff0-patterns');
    wellFormed(s);
    const d = data(s);
    const a = d.get('self_draw, run A: 300.0 [250.0, 350.0]')!.bar!;
    const b = d.get('self_draw, run B: 150.0 [120.0, 180.0]')!.bar!;
    expect(num(a, 'width') / num(b, 'width')).toBeCloseTo(2, 2);
    expect(num(b, 'y')).toBeGreaterThan(num(a, 'y'));
  });

  it('rowChart draws a dashed rule only where asked, bars without dots', () => {
    const s = rowChart({ id: 'r', title: 't', subtitle: 's', series: [{ key: 'k', label: 'k', color: '#000' }], legend: false, mark: 'bar', step: 10, panels: [{ categories: ['c'], data: [{ category: 'c', series: 'k', value: 1, lo: NaN, hi: NaN }], axis: '' }] });
    expect(elements(s, 'rule')).toEqual([]);
    expect(elements(s, 'dot')).toEqual([]);
    expect(elements(s, 'bar')).toHaveLength(1);
  });
});
