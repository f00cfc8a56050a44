/**
 * Plain-text tables of a summary, for the terminal and report.md.
 */
import type { Estimate } from './stats.js';
import type { Summary } from './summary.js';

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

/** A percentage with its interval. */
export function pct(e: Estimate): string {
  return ci(e, 1, 100);
}

/** The p-value in a readable form. */
export function pValue(p: number): string {
  if (!Number.isFinite(p)) return 'n/a';
  return p < 1e-4 ? '<0.0001' : p.toFixed(4);
}

/** The summary as text: per arm, the bot table, paired differences and the top patterns. */
export function formatSummary(s: Summary, topPatterns = 12): string {
  const out: string[] = [];
  for (const arm of s.arms) {
    out.push(`Profile ${arm.profile}: ${arm.hands.toLocaleString('en-US')} hands over ${arm.deals.toLocaleString('en-US')} deals`);
    out.push(
      table(
        ['bot', 'seat-hands', 'points/hand [95% CI]', 'win %', 'self-draw % of wins', 'deal-in %', 'tai/win', 'draw %'],
        arm.bots.map((b) => [b.bot, b.hands.toLocaleString('en-US'), ci(b.pointsPerHand), pct(b.winRate), pct(b.selfDrawShare), pct(b.dealInRate), ci(b.taiPerWin), pct(b.drawRate)]),
      ),
    );
    if (arm.paired.length > 0) {
      out.push('');
      out.push('Paired differences (same deals, points per seat-hand):');
      out.push(
        table(
          ['a − b', 'difference [95% CI]', 'p', 'deals', 'CI narrower than independent deals'],
          arm.paired.map((p) => [`${p.a} − ${p.b}`, ci(p.diff), pValue(p.pValue), p.deals.toLocaleString('en-US'), Number.isFinite(p.narrowing) ? `${p.narrowing.toFixed(2)}×` : 'n/a']),
        ),
      );
    }
    const outcomes = Object.entries(arm.outcomes).filter(([, e]) => e.mean > 0);
    out.push('');
    out.push(`Outcomes: ${outcomes.map(([o, e]) => `${o} ${pct(e)}%`).join(', ')}`);
    const top = [...arm.patterns].filter((p) => p.wins > 0).sort((a, b) => b.wins - a.wins).slice(0, topPatterns);
    if (top.length > 0) {
      out.push('');
      out.push(table(['pattern', 'per 1,000 wins [95% CI]', 'per 1,000 hands [95% CI]'], top.map((p) => [p.pattern, ci(p.per1000Wins, 1), ci(p.per1000Hands, 1)])));
    }
    out.push('');
  }
  return out.join('\n');
}
