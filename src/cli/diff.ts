/**
 * `tw16 diff A B [--max N] [--json] [--report DIR]`: exit 0 when the two runs' records are
 * identical, 1 when they differ (usable in CI), 2 on bad input (not two complete results),
 * 3 when the report cannot be written.
 */
import { mkdirSync } from 'node:fs';
import type { CommandModule } from 'yargs';
import { diffResults, type DiffSummary } from '../harness/analysis/diff.js';
import { EXIT } from '../core/errors.js';
import { io } from '../harness/io/files.js';
import { ci, table } from '../harness/analysis/format.js';

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
  out.push(`A: ${d.a}\nB: ${d.b}`);
  out.push(
    d.identical
      ? `identical: ${d.hands.compared.toLocaleString('en-US')} hands and ${d.wins.a.toLocaleString('en-US')} wins agree`
      : `different: ${d.hands.changed.toLocaleString('en-US')} of ${d.hands.compared.toLocaleString('en-US')} hands changed, ${d.wins.changed.toLocaleString('en-US')} win rows differ` +
          (d.unmatched ? `, ${d.unmatched.toLocaleString('en-US')} hands on one side only (A ${d.hands.a}, B ${d.hands.b})` : ''),
  );
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
    out.push('', `First ${d.changedHands.length} changed hands:`);
    for (const h of d.changedHands) {
      out.push(`- deal ${h.deal} arm ${h.arm} seating ${h.seating} hand ${h.hand} (key ${h.handKey})`);
      out.push(`    A: ${h.a}`);
      out.push(`    B: ${h.b}`);
      out.push(`    ${h.replayA}`);
      if (h.replayB !== h.replayA) out.push(`    ${h.replayB}`);
    }
  }
  return `${out.join('\n')}\n`;
}

export const diffCommand: CommandModule<object, DiffArgs> = {
  command: 'diff <a> <b>',
  describe: 'Compare two result directories: patterns, bot metrics, hand-by-hand changes (exit 1 if different)',
  builder: (y) =>
    y
      .positional('a', { type: 'string', demandOption: true, describe: 'result directory A' })
      .positional('b', { type: 'string', demandOption: true, describe: 'result directory B' })
      .option('max', { type: 'number', default: 20, describe: 'changed hands to list (all are counted)' })
      .option('json', { type: 'boolean', default: false, describe: 'print the whole comparison as JSON' })
      .option('report', { type: 'string', describe: 'also write diff-report.md and diff-report.html (before/after charts) into this directory' }),
  handler: async (args) => {
    const d = await diffResults(args.a, args.b, args.max);
    process.stdout.write(args.json ? `${JSON.stringify(d, null, 2)}\n` : formatDiff(d));
    if (args.report) {
      const { writeDiffReport } = await import('../harness/analysis/report.js'); // vega loads only when asked for
      const dir = args.report;
      io(dir, 'create directory', () => mkdirSync(dir, { recursive: true }));
      const files = await writeDiffReport(d, dir);
      if (!args.json) process.stdout.write(`report: ${Object.values(files).join(', ')}\n`);
    }
    if (!d.identical) process.exitCode = EXIT.BOT_ERROR_OR_DIFFERENT;
  },
};
