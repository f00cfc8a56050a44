/**
 * Plain-text tables of a summary, for the terminal and report.md.
 */
import type { Estimate } from './stats.js';
import type { LeagueSummary } from './league.js';
import type { ArmSummary, StopSummary, Summary } from './summary.js';

/** Columns padded to their widest cell; the first column left-aligned, the rest right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** `mean [lo, hi]` with `digits` decimals. */
export function ci(e: Estimate, digits = 2, scale = 1): string {
  if (!Number.isFinite(e.mean)) return 'n/a';
  const f = (x: number) => (x * scale).toFixed(digits);
  return Number.isFinite(e.se) ? `${f(e.mean)} [${f(e.lo)}, ${f(e.hi)}]` : f(e.mean);
}

/** Whether a luck-adjusted estimate is the raw one: the adjustment would have widened its interval (cv.ts `narrower`). */
export function isRawFallback(e: Estimate | null | undefined): boolean {
  return !!e && Number.isFinite(e.mean) && !e.estimator.endsWith('-cv-t');
}

/** What a `raw` mark in a luck-adjusted column means (printed under a table that has one). */
export const RAW_NOTE = 'raw: the luck adjustment would have widened that interval, so the raw estimate stands in the luck-adjusted column (a column with raw cells need not sum to zero)';

/** A luck-adjusted cell: `mean [lo, hi]`, marked `raw` where the raw estimate stands in; `n/a` without one. */
export function adjustedCell(e: Estimate | null | undefined, digits = 2): string {
  if (!e) return 'n/a';
  return isRawFallback(e) ? `${ci(e, digits)} raw` : ci(e, digits);
}

/** A percentage with its interval. */
export function pct(e: Estimate): string {
  return ci(e, 1, 100);
}

/** The p-value in a readable form: 4 decimals, then powers of ten, and "< 1e-300" below what a double holds (an underflow to 0 included). */
export function pValue(p: number | null | undefined): string {
  if (typeof p !== 'number' || !Number.isFinite(p)) return 'n/a';
  if (p < 1e-300) return '< 1e-300';
  return p < 1e-4 ? p.toExponential(1) : p.toFixed(4);
}

/** A ratio with its interval: `1.41× [1.32, 1.50]`. */
export function times(e: Estimate | null | undefined): string {
  if (!e || typeof e.mean !== 'number' || !Number.isFinite(e.mean)) return 'n/a';
  const f = (x: number) => x.toFixed(2);
  return Number.isFinite(e.lo) && Number.isFinite(e.hi) ? `${f(e.mean)}× [${f(e.lo)}, ${f(e.hi)}]` : `${f(e.mean)}×`;
}

/** The table's draw rate and its other outcome shares, as one line. */
export function outcomesLine(arm: ArmSummary): string {
  const draw = arm.outcomes.draw;
  const rest = Object.entries(arm.outcomes).filter(([o, e]) => o !== 'draw' && Number.isFinite(e.mean) && e.mean > 0);
  const parts = [`drawn ${draw ? pct(draw) : 'n/a'}% (the table's, not a bot's)`, ...rest.map(([o, e]) => `${o} ${pct(e)}%`)];
  return parts.join(', ');
}

/** Header and rows of the paired table (terminal and report.md). */
export function pairedTable(arm: ArmSummary, luck: boolean): { header: string[]; rows: string[][] } {
  const header = ['a − b', 'difference [95% CI]', 'p', 'p Holm'];
  if (luck) header.push('luck-adjusted [95% CI]', 'p', 'p Holm');
  header.push('deals', 'narrower than independent hands [95% CI]');
  const rows = arm.paired.map((p) => {
    const r = [`${p.a} − ${p.b}`, ci(p.diff), pValue(p.pValue), pValue(p.pHolm)];
    if (luck) r.push(adjustedCell(p.diffAdjusted), pValue(p.pValueAdjusted), pValue(p.pHolmAdjusted));
    r.push(p.deals.toLocaleString('en-US'), times(p.narrowing));
    return r;
  });
  return { header, rows };
}

/** Header and rows of the bot table. */
export function botTable(arm: ArmSummary, luck: boolean): { header: string[]; rows: string[][] } {
  const header = ['bot', 'seat-hands', 'points/hand [95% CI]'];
  if (luck) header.push('luck-adjusted [95% CI]');
  header.push('win %', 'self-draw % of wins', 'deal-in %', 'tai/win');
  const rows = arm.bots.map((b) => {
    const r = [b.bot, b.hands.toLocaleString('en-US'), ci(b.pointsPerHand)];
    if (luck) r.push(adjustedCell(b.pointsPerHandAdjusted));
    r.push(pct(b.winRate), pct(b.selfDrawShare), pct(b.dealInRate), ci(b.taiPerWin));
    return r;
  });
  return { header, rows };
}

/** The summary as text: the stop rule's verdict, the league's ranking, then per arm the bot table, the paired differences, outcomes and the top patterns. */
export function formatSummary(s: Summary, topPatterns = 12): string {
  const out: string[] = [];
  const luck = s.luck === true;
  if (s.stop) out.push(stopText(s.stop), '');
  if (s.league) {
    const lt = leagueTable(s.league, luck);
    out.push(leagueHeading(s.league), table(lt.header, lt.rows), ...rawNote(lt.rows), '');
  }
  for (const arm of s.arms) {
    out.push(`Profile ${arm.profile}: ${arm.hands.toLocaleString('en-US')} hands over ${arm.deals.toLocaleString('en-US')} deals`);
    const bt = botTable(arm, luck);
    out.push(table(bt.header, bt.rows), ...rawNote(bt.rows));
    out.push('');
    out.push(`Outcomes: ${outcomesLine(arm)}`);
    if (arm.paired.length > 0) {
      out.push('');
      out.push(`Paired differences (same deals, points per seat-hand; p: t-test, p Holm: adjusted over the ${arm.paired.length} pair${arm.paired.length === 1 ? '' : 's'}):`);
      const pt = pairedTable(arm, luck);
      out.push(table(pt.header, pt.rows), ...rawNote(pt.rows));
    }
    for (const w of arm.warnings ?? []) out.push(`Warning: ${w}.`);
    if (arm.replays > 0) out.push(`(${arm.replays.toLocaleString('en-US')} rows replayed a seating already played on their deal and count once.)`);
    const top = [...arm.patterns].filter((p) => p.wins > 0).sort((a, b) => b.wins - a.wins).slice(0, topPatterns);
    if (top.length > 0) {
      out.push('');
      out.push(table(['pattern', 'per 1,000 wins [95% CI]', 'per 1,000 hands [95% CI]'], top.map((p) => [p.pattern, ci(p.per1000Wins, 1), ci(p.per1000Hands, 1)])));
    }
    out.push('');
  }
  return out.join('\n');
}

/** RAW_NOTE as a line, when a row has a raw cell. */
export function rawNote(rows: readonly (readonly string[])[]): string[] {
  return rows.some((r) => r.some((c) => c.endsWith('] raw'))) ? [`(${RAW_NOTE}.)`] : [];
}

/** What each stop verdict means, in words. */
const VERDICT_WORDS: Readonly<Record<StopSummary['verdict'], (a: string, b: string, delta: number) => string>> = {
  a_better: (a, b) => `${a} is better than ${b}`,
  b_better: (a, b) => `${b} is better than ${a}`,
  within_delta: (a, b, d) => `${a} and ${b} differ by less than ${d} points per seat-hand either way`,
  undecided: () => 'undecided: the most deals were played without a decision',
};

/** The stop rule's verdict in one paragraph: what was decided, after how many deals, with what interval and guarantee. */
export function stopText(st: StopSummary): string {
  const [a, b] = st.compare;
  const e = st.estimate;
  const n0 = (x: number) => x.toLocaleString('en-US');
  const saved = st.deals < st.maxDeals ? `, stopping after ${n0(st.deals)} of at most ${n0(st.maxDeals)} deals` : `, after all ${n0(st.deals)} deals`;
  const lines = [
    `Stop rule: ${VERDICT_WORDS[st.verdict](a, b, st.delta)}${saved} (${st.looks.length} look${st.looks.length === 1 ? '' : 's'}).`,
    `${a} − ${b}: ${ci(e, 3)} points per seat-hand (${e.estimator === 'group-sequential-rci' ? `repeated ${Math.round(100 * (1 - st.alpha))}% confidence interval: it holds whenever the run stops` : e.estimator}).`,
    `Error rates fixed in advance: a difference (or its sign) declared wrongly at most ${st.alpha} of the time, "within ${st.delta}" declared wrongly at most ${st.beta} of the time (group-sequential test, error spending over the looks).`,
  ];
  return lines.join('\n');
}

/** The league's heading: its design and what a rating is. */
export function leagueHeading(l: LeagueSummary): string {
  return `League: ${l.ratings.length} bots, ${l.deals.toLocaleString('en-US')} deals (one table of four a deal from ${l.design}; each table plays every seating). Rating: points per seat-hand relative to the field (the ratings sum to zero), 95% intervals with deals as clusters:`;
}

/** Header and rows of the league's ranking, best first. */
export function leagueTable(l: LeagueSummary, luck: boolean): { header: string[]; rows: string[][] } {
  const header = ['rank', 'bot', 'rating [95% CI]'];
  if (luck) header.push('luck-adjusted [95% CI]');
  header.push('seat-hands');
  const key = (r: LeagueSummary['ratings'][number]) => (luck && r.adjusted !== null ? r.adjusted : r.rating);
  const rows = [...l.ratings]
    .sort((x, y) => key(y) - key(x))
    .map((r, i) => {
      const row = [String(i + 1), r.bot, ci({ mean: r.rating, lo: r.lo, hi: r.hi, se: r.se, df: l.deals - 1, estimator: 'league-ls-t' }, 3)];
      // A rating whose adjusted interval would be wider keeps its raw one (league.ts): the same numbers.
      const raw = r.adjusted === r.rating && r.adjustedLo === r.lo && r.adjustedHi === r.hi;
      if (luck) row.push(r.adjusted === null ? 'n/a' : adjustedCell({ mean: r.adjusted, lo: r.adjustedLo!, hi: r.adjustedHi!, se: r.adjustedSe!, df: l.deals - 1, estimator: raw ? 'league-ls-t' : 'league-ls-cv-t' }, 3));
      row.push(r.hands.toLocaleString('en-US'));
      return row;
    });
  return { header, rows };
}
