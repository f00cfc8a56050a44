/**
 * Reports of a finished run: `report.md` (text tables) and a self-contained `report.html`
 * (the same tables plus charts). The charts are static SVG drawn by charts.ts and inlined: the
 * page loads no script, font, stylesheet or image from anywhere. Output is a pure function of the
 * inputs (no timestamps, element ids prefixed per chart), so the same run gives the same bytes.
 *
 * Charts, per rule arm: points per seat-hand per bot with 95% intervals; win, deal-in and
 * self-draw rates per bot; the tai distribution of wins (from wins.arrow); pattern
 * frequencies per 1,000 wins; a league's ranking with its intervals. A stop rule's verdict is
 * said in words at the top. For `tw16 diff`, before/after bars of pattern frequencies and
 * bot metrics.
 */
import { InputError } from '../../core/errors.js';
import { readJsonFile, writeAtomic } from '../io/files.js';
import { commitResult, openResult, withStaging } from '../results/resultdir.js';
import { join } from 'node:path';
import { PATTERN_NAMES } from '../../rules/types.js';
import { columnChart, escapeXml as esc, PALETTE, rowChart, type Datum, type Series } from './charts.js';
import type { DiffSummary } from './diff.js';
import { ci, isRawFallback, leagueHeading, RAW_NOTE, leagueTable, outcomesLine, pairedTable, pct, pValue, stopText, table, times } from './format.js';
import type { LeagueSummary } from './league.js';
import type { Estimate } from './stats.js';
import type { ArmSummary, BotSummary, Summary } from './summary.js';

/** Paths of the files a report wrote. */
export interface ReportFiles {
  readonly md: string;
  readonly html: string;
}

/** A summary.json that is missing or not a run summary. */
export class ReportInputError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'ReportInputError';
  }
}

/** Wins by tai value, per rule arm (the input of the tai histogram). */
export type TaiCounts = ReadonlyMap<number, ReadonlyMap<number, number>>;

/**
 * What the diff report needs of `tw16 diff`'s result: the pattern and bot comparisons
 * (the changed hands are listed by `tw16 diff` itself, not charted).
 */
export type DiffReportInput = Pick<DiffSummary, 'a' | 'b' | 'identical' | 'patterns' | 'bots'>;

// ---------------------------------------------------------------------------------------
// Inputs

/** Read and check `DIR/summary.json`; throws ReportInputError with a one-line reason. */
export function readSummary(dir: string): Summary {
  const file = join(dir, 'summary.json');
  const s = readJsonFile(file, { missing: () => `${file}: not found (is ${dir} the output directory of a complete tw16 run?)` });
  const arms = (s as { arms?: unknown } | null)?.arms;
  if (!Array.isArray(arms) || arms.some((a) => typeof a !== 'object' || a === null || !Array.isArray((a as ArmSummary).bots) || !Array.isArray((a as ArmSummary).patterns))) {
    throw new ReportInputError(`${file}: not a tw16 run summary (no "arms" with bots and patterns)`);
  }
  return s as Summary;
}

/**
 * Count wins by tai per arm from a wins.arrow file, one record batch at a time. (The Arrow reader
 * loads here, not with this module: a run's report thread, given the counts, never needs it.)
 */
export async function readTaiCounts(winsPath: string): Promise<Map<number, Map<number, number>>> {
  const { readBatches } = await import('../io/read.js');
  const out = new Map<number, Map<number, number>>();
  for await (const rb of readBatches(winsPath)) {
    const arm = rb.getChild('arm')?.toArray() as ArrayLike<number> | undefined;
    const tai = rb.getChild('tai')?.toArray() as ArrayLike<number> | undefined;
    if (!arm || !tai) throw new ReportInputError(`${winsPath}: no "arm" and "tai" columns`);
    for (let i = 0; i < rb.numRows; i++) {
      let m = out.get(arm[i]!);
      if (!m) out.set(arm[i]!, (m = new Map()));
      m.set(tai[i]!, (m.get(tai[i]!) ?? 0) + 1);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Charts

const finite = (x: number | null | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

/** An estimate as a chart datum (no interval line where lo or hi is missing: JSON writes NaN as null). */
const datum = (category: string, series: string, e: { readonly mean: number; readonly lo?: number | null; readonly hi?: number | null }): Datum => ({
  category,
  series,
  value: e.mean,
  lo: e.lo ?? NaN,
  hi: e.hi ?? NaN,
});

/** The raw and luck-adjusted series of the points and league charts. */
const KINDS: readonly Series[] = [
  { key: 'raw', label: 'raw', color: PALETTE[0] },
  { key: 'luck-adjusted', label: 'luck-adjusted', color: PALETTE[1] },
];

/**
 * Points per seat-hand per bot: a dot at the mean and a line across the 95% interval, raw and
 * (when the run recorded luck) luck-adjusted side by side, one line each per bot.
 */
export function pointsChart(arm: ArmSummary, id: string): string {
  const data = arm.bots.flatMap((b) => [datum(b.bot, 'raw', b.pointsPerHand), ...(b.pointsPerHandAdjusted ? [datum(b.bot, 'luck-adjusted', b.pointsPerHandAdjusted)] : [])]);
  return intervalDots(id, arm.bots.map((b) => b.bot), data, {
    title: 'Points per seat-hand',
    axis: 'points per seat-hand',
    both: 'dot: mean, line: 95% interval (by deal); blue: raw, orange: luck-adjusted; dashed: break-even',
    rawOnly: 'dot: mean; line: 95% interval (clustered by deal); dashed: break-even',
  });
}

/** A league's ranking: each bot's rating, best on top, a dot at the rating and a line across its 95% interval (raw and luck-adjusted). */
export function leagueChart(l: LeagueSummary, id: string): string {
  const order = [...l.ratings].sort((x, y) => (y.adjusted ?? y.rating) - (x.adjusted ?? x.rating)).map((r) => r.bot);
  const data = l.ratings.flatMap((r) => [
    datum(r.bot, 'raw', { mean: r.rating, lo: r.lo, hi: r.hi }),
    ...(finite(r.adjusted) ? [datum(r.bot, 'luck-adjusted', { mean: r.adjusted, lo: r.adjustedLo, hi: r.adjustedHi })] : []),
  ]);
  return intervalDots(id, order, data, {
    title: 'League ranking: points per seat-hand relative to the field',
    axis: 'rating (points per seat-hand)',
    both: 'best on top; dot: rating, line: 95% interval (by deal); blue: raw, orange: luck-adjusted; dashed: the field',
    rawOnly: 'best on top; dot: rating, line: 95% interval (by deal); dashed: the field',
  });
}

/** One row per bot (two lines where luck-adjusted values are there too): a dot at the value, a line from lo to hi, a dashed rule at 0. */
function intervalDots(id: string, bots: readonly string[], data: readonly Datum[], text: { readonly title: string; readonly axis: string; readonly both: string; readonly rawOnly: string }): string {
  const both = data.some((d) => d.series === 'luck-adjusted' && finite(d.value));
  return rowChart({
    id,
    title: text.title,
    subtitle: both ? text.both : text.rawOnly,
    series: both ? KINDS : KINDS.slice(0, 1),
    legend: both,
    mark: 'dot',
    step: both ? 17 : 28,
    zeroRule: true,
    panels: [{ categories: bots, data, axis: text.axis }],
  });
}

/** Rows of a league's pairwise differences (terminal-style text). */
function leaguePairRows(l: LeagueSummary, luck: boolean): { header: string[]; rows: string[][] } {
  const header = ['a − b', 'difference [95% CI]', 'p', 'p Holm', ...(luck ? ['luck-adjusted [95% CI]', 'p', 'p Holm'] : [])];
  const rows = l.pairs.map((p) => [`${p.a} − ${p.b}`, ci(p.diff, 3), pValue(p.pValue), pValue(p.pHolm), ...(luck ? [p.diffAdjusted ? ci(p.diffAdjusted, 3) : 'n/a', pValue(p.pValueAdjusted), pValue(p.pHolmAdjusted)] : [])]);
  return { header, rows };
}

/** The three rates charted per bot, in chart order. */
const RATES: readonly { key: keyof BotSummary; label: string }[] = [
  { key: 'winRate', label: 'win' },
  { key: 'dealInRate', label: 'deal-in' },
  { key: 'selfDrawShare', label: 'self-draw of wins' },
];

/** Win, deal-in and self-draw rates: a group of bars per rate, one bar per bot, with 95% intervals. */
export function ratesChart(arm: ArmSummary, id: string): string {
  const label = (r: (typeof RATES)[number]): string => r.label.replace(' of ', '\nof ');
  return columnChart({
    id,
    title: 'Win, deal-in and self-draw rates',
    subtitle: 'bars: rate; black lines: 95% interval',
    series: arm.bots.map((b, i) => ({ key: b.bot, label: b.bot, color: PALETTE[i % PALETTE.length]! })),
    legend: true,
    categories: RATES.map(label),
    data: arm.bots.flatMap((b) => RATES.map((r) => datum(label(r), b.bot, b[r.key] as Estimate))),
    axis: 'rate',
    percent: true,
    step: arm.bots.length > 6 ? 14 : 22,
    height: 220,
  });
}

/** One bar of the tai histogram. */
export interface TaiBin {
  /** Label: the tai value, or `lo–hi` when bins are wider than one tai. */
  readonly tai: string;
  readonly lo: number;
  readonly hi: number;
  readonly wins: number;
  /** Share of the arm's wins. */
  readonly share: number;
}

/** Wins by tai, one bin per tai value from 0 to the largest (wider bins past 40 values). */
export function taiBins(counts: ReadonlyMap<number, number> | undefined): TaiBin[] {
  if (!counts || counts.size === 0) return [];
  const max = Math.max(...counts.keys());
  const width = Math.max(1, Math.ceil((max + 1) / 40));
  const total = [...counts.values()].reduce((a, x) => a + x, 0);
  const bins: TaiBin[] = [];
  for (let lo = 0; lo <= max; lo += width) {
    const hi = Math.min(max, lo + width - 1);
    let wins = 0;
    for (let t = lo; t <= hi; t++) wins += counts.get(t) ?? 0;
    bins.push({ tai: width === 1 ? String(lo) : `${lo}–${hi}`, lo, hi, wins, share: wins / total });
  }
  return bins;
}

/** Histogram of tai per win (patterns only, settlement extras excluded). */
export function taiChart(bins: readonly TaiBin[], id: string): string {
  return columnChart({
    id,
    title: 'Tai per win',
    subtitle: 'share of wins at each tai total (patterns only)',
    series: [{ key: 'share', label: 'share of wins', color: PALETTE[0] }],
    legend: false,
    categories: bins.map((b) => b.tai),
    data: bins.map((b) => ({ category: b.tai, series: 'share', value: b.share, lo: NaN, hi: NaN })),
    axis: 'share of wins',
    xTitle: 'tai',
    percent: true,
    step: bins.length > 24 ? 14 : 22,
    height: 200,
    thinLabels: true,
  });
}

/** Patterns that occurred, most frequent first (ties in pattern-list order). */
function seenPatterns(arm: ArmSummary): ArmSummary['patterns'] {
  return arm.patterns.filter((p) => p.wins > 0).sort((x, y) => y.wins - x.wins);
}

/** Pattern frequencies per 1,000 wins: horizontal bars with 95% (Wilson) intervals. */
export function patternsChart(arm: ArmSummary, id: string): string {
  const seen = seenPatterns(arm);
  return rowChart({
    id,
    title: 'Patterns per 1,000 wins',
    subtitle: 'bars: frequency; black lines: 95% interval',
    series: [{ key: 'wins', label: 'per 1,000 wins', color: PALETTE[0] }],
    legend: false,
    mark: 'bar',
    step: 16,
    panels: [{ categories: seen.map((p) => p.pattern), data: seen.map((p) => datum(p.pattern, 'wins', p.per1000Wins)), axis: 'wins holding the pattern, per 1,000 wins' }],
  });
}

// ---------------------------------------------------------------------------------------
// HTML pieces

const n0 = (x: number): string => x.toLocaleString('en-US');
/** A number with fixed decimals, `n/a` when not finite (JSON turns NaN into null). */
const fx = (x: number | null | undefined, digits: number, scale = 1): string => (finite(x) ? (x * scale).toFixed(digits) : 'n/a');

/** An HTML table; cells after the first are right-aligned numbers. */
function htmlTable(header: readonly string[], rows: readonly (readonly string[])[], className = 'num', zhColumn = -1): string {
  const head = `<tr>${header.map((h, i) => `<th${i === zhColumn ? ' class="zh"' : ''}>${esc(h)}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr>${r.map((c, i) => (i === zhColumn ? `<td class="zh" lang="zh-Hant">${esc(c)}</td>` : `<td>${esc(c)}</td>`)).join('')}</tr>`).join('\n');
  return `<table class="${className}">\n<thead>${head}</thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** A chart with its table beside it (below on narrow screens); `id` names the figure. */
function figure(id: string, svg: string, tableHtml: string, caption: string): string {
  return `<figure id="${id}">\n<div class="chart">${svg}</div>\n<div class="numbers">\n<figcaption>${esc(caption)}</figcaption>\n${tableHtml}\n</div>\n</figure>`;
}

const STYLE = `
body { font-family: sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
figure { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; margin: 1.5em 0; }
figcaption { font-size: .9em; color: #555; margin-bottom: .4em; }
.chart svg { max-width: 100%; height: auto; }
table { border-collapse: collapse; font-size: .85em; }
th, td { padding: .2em .6em; border-bottom: 1px solid #e4e4e4; }
th { text-align: left; background: #f4f4f4; }
table.num td:not(:first-child) { text-align: right; font-variant-numeric: tabular-nums; }
p.note { color: #555; font-size: .9em; }
code { background: #f4f4f4; padding: 0 .2em; }
.zh { font-family: "Noto Sans CJK TC", "Noto Sans TC", "Source Han Sans TC", "PingFang TC", "Heiti TC", "Microsoft JhengHei", "WenQuanYi Zen Hei", sans-serif; }
body.no-cjk .zh { display: none; }
.no-cjk { display: none; } body.no-cjk p.no-cjk { display: block; }
`;

/** Shown in place of the Chinese pattern names where the browser has no font for them (CJK_CHECK). */
const NO_CJK_NOTE = '\n<p class="note no-cjk">This browser has no font for the Chinese pattern names, so their column is hidden (report.md and docs/rules.md have them).</p>';

/**
 * Where no installed font has the Chinese names, they would show as boxes (the hand viewer avoids CJK
 * altogether). The page draws 門 and a code point no font has (U+10FFFD) in the names' fonts; the same
 * pixels mean both are the missing-glyph box, and the names' column is hidden. No network, no error.
 */
const CJK_CHECK = `<script>
(function () {
  try {
    var c = document.createElement('canvas'); c.width = c.height = 24;
    var g = c.getContext('2d', { willReadFrequently: true }); if (!g) return;
    var ink = function (ch) { g.clearRect(0, 0, 24, 24); g.font = '20px ' + getComputedStyle(document.querySelector('.zh') || document.body).fontFamily; g.fillText(ch, 0, 20); return Array.prototype.join.call(g.getImageData(0, 0, 24, 24).data); };
    if (ink('\\u9580') === ink('\\udbff\\udffd')) document.body.classList.add('no-cjk');
  } catch (e) { /* keep the names */ }
})();
</script>`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${esc(title)}</title>\n<style>${STYLE}</style>\n</head>\n<body>\n${body}\n${CJK_CHECK}\n</body>\n</html>\n`;
}

// ---------------------------------------------------------------------------------------
// The run report

/** Rows of the bot tables (the HTML and markdown tables show the same numbers). */
function botRows(arm: ArmSummary, luck: boolean): { points: string[][]; rates: string[][] } {
  return {
    points: arm.bots.map((b) => {
      const adj = b.pointsPerHandAdjusted;
      const row = [b.bot, n0(b.hands), fx(b.pointsPerHand.mean, 3), fx(b.pointsPerHand.lo, 3), fx(b.pointsPerHand.hi, 3)];
      if (luck) row.push(isRawFallback(adj) ? `${fx(adj?.mean, 3)} raw` : fx(adj?.mean, 3), fx(adj?.lo, 3), fx(adj?.hi, 3));
      row.push(ci(b.taiPerWin));
      return row;
    }),
    rates: arm.bots.map((b) => [b.bot, ...RATES.flatMap((r) => [pct(b[r.key] as Estimate)])]),
  };
}

const pointsHeader = (luck: boolean): string[] => ['bot', 'seat-hands', 'points/hand', '95% lo', '95% hi', ...(luck ? ['luck-adjusted', '95% lo', '95% hi'] : []), 'tai/win [95% CI]'];
const RATES_HEADER = ['bot', 'win % [95% CI]', 'deal-in % [95% CI]', 'self-draw % of wins [95% CI]'];
const TAI_HEADER = ['tai', 'wins', '% of wins', 'cumulative %'];
const PATTERN_HEADER = ['pattern', 'wins', 'per 1,000 wins', '95% lo', '95% hi', 'per 1,000 hands [95% CI]', 'name'];

function taiRows(bins: readonly TaiBin[]): string[][] {
  let cum = 0;
  return bins
    .filter((b) => b.wins > 0)
    .map((b) => {
      cum += b.share;
      return [b.tai, n0(b.wins), fx(b.share, 1, 100), fx(Math.min(1, cum), 1, 100)];
    });
}

function patternRows(arm: ArmSummary): string[][] {
  return seenPatterns(arm).map((p) => [p.pattern, n0(p.wins), fx(p.per1000Wins.mean, 1), fx(p.per1000Wins.lo, 1), fx(p.per1000Wins.hi, 1), ci(p.per1000Hands, 1), PATTERN_NAMES[p.pattern] ?? '']);
}

function experimentInfo(s: Summary): { name: string; hypothesis: string; seating: string } {
  const e = (s.experiment ?? {}) as { name?: unknown; hypothesis?: unknown; seating?: unknown };
  return {
    name: typeof e.name === 'string' ? e.name : 'tw16 run',
    hypothesis: typeof e.hypothesis === 'string' ? e.hypothesis : '',
    seating: typeof e.seating === 'string' ? e.seating : 'fixed',
  };
}


/**
 * The report's two documents from a summary and the tai counts of its wins (pure: no
 * files read or written). `taiCounts` undefined leaves the tai histogram out.
 */
export async function buildReport(s: Summary, taiCounts?: TaiCounts): Promise<{ md: string; html: string }> {
  const info = experimentInfo(s);
  const md: string[] = [`# ${info.name}`, ''];
  if (info.hypothesis) md.push(info.hypothesis, '');
  md.push(`${n0(s.hands)} hands, ${n0(s.wins)} wins, ${s.arms.length} rule arm${s.arms.length === 1 ? '' : 's'}, seating ${info.seating}, tw16 ${s.version}. Charts: report.html.`, '');
  const html: string[] = [`<h1>${esc(info.name)}</h1>`];
  if (info.hypothesis) html.push(`<p>${esc(info.hypothesis)}</p>`);
  html.push(`<p class="note">${esc(`${n0(s.hands)} hands, ${n0(s.wins)} wins, ${s.arms.length} rule arm${s.arms.length === 1 ? '' : 's'}, seating ${info.seating}, tw16 ${s.version}. Intervals are 95%; bot intervals are clustered by deal.`)}</p>`);
  if (s.stop) {
    const text = stopText(s.stop).split('\n');
    md.push('## Stop rule', '', ...text.map((t) => `${t}  `), '');
    html.push('<h2 id="stop">Stop rule</h2>', ...text.map((t) => `<p>${esc(t)}</p>`));
    const looks = s.stop.looks.map((k) => [n0(k.deals), fx(k.estimate.mean, 3), fx(k.lo, 3), fx(k.hi, 3), fx(k.equivalenceLo, 3), fx(k.equivalenceHi, 3), k.verdict]);
    const header = ['deals', `${s.stop.compare[0]} − ${s.stop.compare[1]}`, 'repeated CI lo', 'hi', 'equivalence lo', 'hi', 'decision'];
    md.push('```text', table(header, looks), '```', '');
    html.push(htmlTable(header, looks), `<p class="note">Each look sees the deals before it; the run stops at the first decision. ${esc(s.stop.method)}.</p>`);
  }
  if (s.league) {
    const luck = s.luck === true;
    const lt = leagueTable(s.league, luck);
    const lp = leaguePairRows(s.league, luck);
    md.push('## League', '', leagueHeading(s.league), '', '```text', table(lt.header, lt.rows), '```', '', '### Pairwise differences (p Holm over every pair)', '', '```text', table(lp.header, lp.rows), '```', '');
    html.push('<h2 id="league">League</h2>', `<p>${esc(leagueHeading(s.league))}</p>`);
    html.push(figure('league-ranking', leagueChart(s.league, 'league-ranking'), htmlTable(lt.header, lt.rows), 'The ranking, with 95% intervals'));
    html.push('<p class="note">Pairwise differences of ratings (p Holm: adjusted over every pair of the league):</p>', htmlTable(lp.header, lp.rows));
  }

  for (const arm of s.arms) {
    const id = `arm${arm.arm}`;
    const heading = `Profile ${arm.profile}: ${n0(arm.hands)} hands over ${n0(arm.deals)} deals`;
    const luck = s.luck === true;
    const rows = botRows(arm, luck);
    const bins = taiCounts ? taiBins(taiCounts.get(arm.arm)) : undefined;
    const tRows = bins ? taiRows(bins) : [];
    const pRows = patternRows(arm);
    const outcomes = outcomesLine(arm);

    md.push(`## ${heading}`, '');
    if (outcomes) md.push(`Outcomes: ${outcomes}.`, '');
    md.push('### Points per seat-hand', '', '```text', table(pointsHeader(luck), rows.points), '```', '');
    if (rows.points.some((r) => r.some((c) => c.endsWith(' raw')))) md.push(`${RAW_NOTE}.`, '');
    md.push('### Rates', '', '```text', table(RATES_HEADER, rows.rates), '```', '');
    if (arm.paired.length > 0) {
      md.push('### Paired differences (same deals, points per seat-hand)', '', '```text');
      const pt = pairedTable(arm, luck);
      md.push(table(pt.header, pt.rows));
      md.push('```', '', 'p: two-sided t-test over deals; p Holm: adjusted over the arm\'s pairs (family-wise 5%).', '');
    }
    for (const w of arm.warnings ?? []) md.push(`**Warning:** ${w}.`, '');
    if (bins) md.push('### Tai per win', '', '```text', tRows.length > 0 ? table(TAI_HEADER, tRows) : 'no wins', '```', '');
    md.push('### Patterns per 1,000 wins', '', '```text', pRows.length > 0 ? table(PATTERN_HEADER, pRows) : 'no patterns scored', '```', '');

    html.push(`<h2 id="${id}">${esc(heading)}</h2>`);
    if (outcomes) html.push(`<p>Outcomes: ${esc(outcomes)}.</p>`);
    if (rows.points.length > 0) {
      html.push(
        figure(
          `${id}-points`,
          pointsChart(arm, `${id}-points`),
          htmlTable(pointsHeader(luck), rows.points),
          luck ? 'Points won (+) or paid (−) per seat-hand, raw and luck-adjusted, with 95% intervals' : 'Points won (+) or paid (−) per seat-hand, with the 95% interval',
        ),
      );
      html.push(figure(`${id}-rates`, ratesChart(arm, `${id}-rates`), htmlTable(RATES_HEADER, rows.rates), 'Rates per seat-hand (self-draw: share of the bot’s wins)'));
    }
    if (arm.paired.length > 0) {
      html.push(
        `<p class="note">Paired differences (same deals, points per seat-hand):</p>`,
        htmlTable(
          ['a − b', 'difference', '95% lo', '95% hi', 'p', 'p Holm', ...(luck ? ['luck-adjusted', '95% lo', '95% hi', 'p', 'p Holm'] : []), 'deals', 'narrower than independent hands [95% CI]'],
          arm.paired.map((p) => [
            `${p.a} − ${p.b}`,
            fx(p.diff.mean, 3),
            fx(p.diff.lo, 3),
            fx(p.diff.hi, 3),
            pValue(p.pValue),
            pValue(p.pHolm),
            ...(luck ? [fx(p.diffAdjusted?.mean, 3), fx(p.diffAdjusted?.lo, 3), fx(p.diffAdjusted?.hi, 3), pValue(p.pValueAdjusted), pValue(p.pHolmAdjusted)] : []),
            n0(p.deals),
            times(p.narrowing),
          ]),
        ),
        `<p class="note">p: two-sided t-test over deals; p Holm: adjusted over the arm’s pairs (family-wise 5%).${luck ? ' Luck-adjusted: points less each seat’s luck (control variates at the chance events, weights fitted on the run by cross-fitting: mean exactly zero).' : ''}</p>`,
      );
    }
    for (const w of arm.warnings ?? []) html.push(`<p class="note"><strong>Warning:</strong> ${esc(w)}.</p>`);
    if (bins && bins.length > 0) html.push(figure(`${id}-tai`, taiChart(bins, `${id}-tai`), htmlTable(TAI_HEADER, tRows), 'Wins by tai total'));
    if (pRows.length > 0) html.push(figure(`${id}-patterns`, patternsChart(arm, `${id}-patterns`), htmlTable(PATTERN_HEADER, pRows, 'num', PATTERN_HEADER.length - 1) + NO_CJK_NOTE, 'Wins holding each pattern, per 1,000 wins (per 1,000 hands in the last column)'));
    else html.push('<p class="note">No patterns scored (no wins).</p>');
  }
  return { md: `${md.join('\n').trimEnd()}\n`, html: page(`tw16 report: ${info.name}`, html.join('\n')) };
}

/**
 * Rewrite `DIR/report.md` and `DIR/report.html` of a complete result (verified first), from its
 * summary.json and (for the tai histogram) wins.arrow, and update its manifest. Throws an
 * InputError when the directory is not a complete result.
 */
export async function writeReport(dir: string): Promise<ReportFiles> {
  const manifest = await openResult(dir, { rewritingReports: true });
  const s = readSummary(dir);
  const { md, html } = await buildReport(s, await readTaiCounts(join(dir, 'wins.arrow')));
  await withStaging(dir, async (staging) => {
    writeAtomic(join(staging, 'report.md'), md);
    writeAtomic(join(staging, 'report.html'), html);
    const { kind, version, experiment, replay } = manifest;
    await commitResult(dir, staging, { kind, version, experiment, replay }, manifest.files);
  });
  return { md: join(dir, 'report.md'), html: join(dir, 'report.html') };
}

// ---------------------------------------------------------------------------------------
// The diff report

/** Bot metrics that are fractions (shown as percentages). */
const FRACTION_METRICS = new Set(['winRate', 'selfDrawShare', 'dealInRate']);
const METRIC_LABELS: Readonly<Record<string, string>> = {
  pointsPerHand: 'points per seat-hand',
  winRate: 'win rate',
  dealInRate: 'deal-in rate',
  selfDrawShare: 'self-draw share of wins',
  taiPerWin: 'tai per win',
};
const metricLabel = (m: string): string => METRIC_LABELS[m] ?? m;
/** Most patterns drawn in one before/after chart (the table lists them all). */
const DIFF_PATTERNS_CHARTED = 30;

/** Runs A and B of a diff. */
const SIDES: readonly Series[] = [
  { key: 'A', label: 'run A', color: '#9ecae9' },
  { key: 'B', label: 'run B', color: PALETTE[1] },
];

/** Before/after bars of pattern frequencies per 1,000 wins, with 95% intervals. */
export function diffPatternsChart(rows: DiffReportInput['patterns'], id: string): string {
  return rowChart({
    id,
    title: 'Patterns per 1,000 wins, A and B',
    subtitle: 'bars: frequency; black lines: 95% interval',
    series: SIDES,
    legend: true,
    mark: 'bar',
    step: 13,
    panels: [{ categories: rows.map((r) => r.pattern), data: rows.flatMap((r) => [datum(r.pattern, 'A', r.a), datum(r.pattern, 'B', r.b)]), axis: 'per 1,000 wins' }],
  });
}

/** Before/after bars of every bot metric, one panel per metric with its own scale. */
export function diffBotsChart(rows: DiffReportInput['bots'], id: string): string {
  const live = rows.filter((r) => finite(r.a.mean) || finite(r.b.mean));
  return rowChart({
    id,
    title: 'Bot metrics, A and B',
    subtitle: 'bars: value; black lines: 95% interval; each panel has its own scale',
    series: SIDES,
    legend: true,
    mark: 'bar',
    step: 13,
    panels: [...new Set(live.map((r) => r.metric))].map((m) => {
      const rs = live.filter((r) => r.metric === m);
      return { title: metricLabel(m), categories: [...new Set(rs.map((r) => r.bot))], data: rs.flatMap((r) => [datum(r.bot, 'A', r.a), datum(r.bot, 'B', r.b)]), axis: '', percent: FRACTION_METRICS.has(m) };
    }),
  });
}

/** A diff value: percentages for rates, else 3 decimals. */
function metricValue(metric: string, e: Estimate): string {
  return FRACTION_METRICS.has(metric) ? pct(e) : ci(e, 3);
}

/**
 * Write `DIR/diff-report.md` and `DIR/diff-report.html` for a `tw16 diff` result: per
 * profile, before/after bars of pattern frequencies and of each bot metric, with tables.
 */
export async function writeDiffReport(diff: DiffReportInput, dir: string): Promise<ReportFiles> {
  const title = `tw16 diff: ${diff.a} → ${diff.b}`;
  const profiles = [...new Set([...diff.patterns.map((p) => p.profile), ...diff.bots.map((b) => b.profile)])];
  const verdict = diff.identical ? 'The two runs are identical.' : 'The two runs differ.';
  const md: string[] = [`# ${title}`, '', `A = ${diff.a}, B = ${diff.b}. ${verdict}`, ''];
  const html: string[] = [`<h1>${esc(title)}</h1>`, `<p>A = <code>${esc(diff.a)}</code>, B = <code>${esc(diff.b)}</code>. ${esc(verdict)} Intervals are 95%.</p>`];
  for (const [i, profile] of profiles.entries()) {
    const id = `diff${i}`;
    const pats = diff.patterns
      .filter((p) => p.profile === profile && ((finite(p.a.mean) && p.a.mean > 0) || (finite(p.b.mean) && p.b.mean > 0)))
      .sort((x, y) => Math.max(y.a.mean || 0, y.b.mean || 0) - Math.max(x.a.mean || 0, x.b.mean || 0));
    const bots = diff.bots.filter((b) => b.profile === profile);
    const pHeader = ['pattern', 'A per 1,000 wins [95% CI]', 'B per 1,000 wins [95% CI]', 'B − A [95% CI]'];
    const pRows = pats.map((p) => [p.pattern, ci(p.a, 1), ci(p.b, 1), ci(p.change, 1)]);
    const bHeader = ['bot', 'metric', 'A [95% CI]', 'B [95% CI]', 'B − A [95% CI]'];
    const bRows = bots.map((b) => [b.bot, metricLabel(b.metric), metricValue(b.metric, b.a), metricValue(b.metric, b.b), metricValue(b.metric, b.change)]);

    md.push(`## Profile ${profile}`, '');
    md.push('### Bot metrics', '', '```text', bRows.length > 0 ? table(bHeader, bRows) : 'no bots', '```', '');
    md.push('### Patterns per 1,000 wins', '', '```text', pRows.length > 0 ? table(pHeader, pRows) : 'no patterns scored', '```', '');

    html.push(`<h2>${esc(`Profile ${profile}`)}</h2>`);
    if (bRows.length > 0) html.push(figure(`${id}-bots`, diffBotsChart(bots, `${id}-bots`), htmlTable(bHeader, bRows), 'Bot metrics in A and B; rates in %'));
    if (pRows.length > 0) {
      const charted = pats.slice(0, DIFF_PATTERNS_CHARTED);
      const note = pats.length > charted.length ? ` (chart: the ${charted.length} most frequent)` : '';
      html.push(figure(`${id}-patterns`, diffPatternsChart(charted, `${id}-patterns`), htmlTable(pHeader, pRows), `Wins holding each pattern, per 1,000 wins${note}`));
    }
  }
  const files = { md: join(dir, 'diff-report.md'), html: join(dir, 'diff-report.html') };
  writeAtomic(files.md, `${md.join('\n').trimEnd()}\n`);
  writeAtomic(files.html, page(title, html.join('\n')));
  return files;
}
