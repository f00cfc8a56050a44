/**
 * `tw16 diff A B [--max N] [--json] [--report DIR]`: exit 0 when the two runs' records are
 * identical, 1 when they differ (usable in CI), 2 on bad input (not two complete results),
 * 3 when the report cannot be written.
 */
import { diffResults, type DiffSummary } from '../harness/analysis/diff.js';
import { EXIT } from '../core/errors.js';
import { makeDirs } from '../harness/io/files.js';
import { ci, table } from '../harness/analysis/format.js';
import { asTyped } from './invocation.js';
import type { CommandBody } from './command.js';

interface DiffArgs {
  a: string;
  b: string;
  max: number;
  json: boolean;
  report?: string;
}

/** The diff as text for a person. */
export function formatDiff(d: DiffSummary): string {
  const out: string[] = [];
  const n = (x: number) => x.toLocaleString('en-US');
  const size = (deals: number, hands: number) => `${deals ? `${n(deals)} deals, ` : ''}${n(hands)} hands`;
  out.push(`A: ${d.a} (${size(d.deals.a, d.hands.a)})\nB: ${d.b} (${size(d.deals.b, d.hands.b)})`);
  if (d.identical) out.push(`identical: ${n(d.hands.compared)} hands and ${n(d.wins.a)} wins agree`);
  else {
    out.push(`different: of the ${n(d.hands.compared)} hands in both, ${n(d.hands.changed)} changed (${n(d.wins.changed)} win rows differ)`);
    if (d.unmatched) {
      const only = [d.hands.onlyA ? `${n(d.hands.onlyA)} only in A` : '', d.hands.onlyB ? `${n(d.hands.onlyB)} only in B` : ''].filter(Boolean).join(' and ');
      out.push(
        `and ${only} (${n(d.wins.unmatched)} win rows): ${d.deals.a !== d.deals.b ? 'the runs differ in size' : 'the runs seat or arm their deals differently'}, ` +
          'so those hands are not compared hand by hand, and the runs are not identical; the statistics below compare the whole runs. To compare hand by hand, run both with the same --hands.',
      );
    }
  }
  for (const [side, r] of [['A', d.rescored.a], ['B', d.rescored.b]] as const) {
    if (!r) continue;
    out.push(
      `Note: ${side} is a rescore: its hands were played under ${r.played.join(', ') || 'the rules of the run it rescored'} and only their wins re-scored under ${r.profile}. ` +
        `Who won, on which tile, and every step before are as played; under ${r.profile} play could have gone otherwise (claims, ready declarations, the wall's reserve), ` +
        `and a win that does not qualify there is counted as no win (outcome void) where play would have gone on. ` +
        `The changes below are those of the scoring alone; to know what ${r.profile} would do, run the experiment with --rules ${r.profile}.`,
    );
  }
  const moved = d.patterns.filter((p) => p.change.mean !== 0 || p.winsA !== p.winsB);
  if (moved.length > 0) {
    out.push('', 'Pattern frequencies per 1,000 wins (change B − A with 95% CI):');
    out.push(
      table(
        ['profile', 'pattern', 'A', 'B', 'change [95% CI]'],
        [...moved].sort((x, y) => Math.abs(y.change.mean) - Math.abs(x.change.mean)).map((p) => [p.profile, p.pattern, p.a.mean.toFixed(1), p.b.mean.toFixed(1), ci(p.change, 1)]),
      ),
    );
  }
  const bots = d.bots.filter((b) => b.change.mean !== 0);
  if (bots.length > 0) {
    out.push('', 'Bot metrics (change B − A with 95% CI; rates as fractions):');
    out.push(table(['profile', 'bot', 'metric', 'A', 'B', 'change [95% CI]'], bots.map((b) => [b.profile, b.bot, b.metric, b.a.mean.toFixed(3), b.b.mean.toFixed(3), ci(b.change, 3)])));
  }
  if (d.changedHands.length > 0) {
    out.push('', `First ${d.changedHands.length} changed hands, with what reproduces each side:`);
    for (const h of d.changedHands) {
      out.push(`- deal ${h.deal} arm ${h.arm} seating ${h.seating} hand ${h.hand} (key ${h.handKey})`);
      out.push(`    A: ${h.a}`);
      out.push(`    B: ${h.b}`);
      const same = h.replayB === h.replayA;
      out.push(`    ${same ? 'A and B played' : 'A played'}: ${h.replayA}`);
      if (!same) out.push(`    B played: ${h.replayB}`);
      for (const [side, r] of [['A', h.rescoredA], ['B', h.rescoredB]] as const) {
        if (!r) continue;
        out.push(`    ${side} re-scored under ${r.rules}${r.score.length ? ':' : ': an instant flower win, no hand to score'}`);
        for (const c of r.score) out.push(`      ${c}`);
      }
    }
  }
  return `${out.join('\n')}\n`;
}

export const diffCommand: CommandBody<DiffArgs> = {
  builder: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true, describe: 'result directory A' })
      .positional('b', { type: 'string', demandOption: true, describe: 'result directory B' })
      .option('max', { type: 'number', default: 20, describe: 'changed hands to list (all are counted)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the whole comparison as JSON' })
      .option('report', { type: 'string', describe: 'also write diff-report.md and diff-report.html (before/after charts) into this directory' }),
  handler: async (args) => {
    const d = await diffResults(args.a, args.b, args.max);
    process.stdout.write(args.json ? `${JSON.stringify(d, null, 2)}\n` : asTyped(formatDiff(d)));
    if (args.report) {
      const { writeDiffReport } = await import('../harness/analysis/report.js'); // loaded only when asked for
      const dir = args.report;
      makeDirs(dir);
      const files = await writeDiffReport(d, dir);
      if (!args.json) process.stdout.write(`report: ${Object.values(files).join(', ')}\n`);
    }
    if (!d.identical) process.exitCode = EXIT.BOT_ERROR_OR_DIFFERENT;
  },
};
