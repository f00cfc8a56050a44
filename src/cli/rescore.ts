/**
 * `tw16 rescore RESULTS --rules PROFILE [--out DIR] [--force] [--json]`: RESULTS must be a complete
 * result (checked against its manifest); DIR becomes one (staged, manifest last).
 */
import { ci, table } from '../harness/analysis/format.js';
import { rescoreResults, type RescoreSummary } from '../harness/analysis/rescore.js';
import { rulesFlag } from './flags.js';
import { asTyped } from './invocation.js';
import type { CommandBody } from './command.js';

interface RescoreArgs {
  results: string;
  rules: string;
  out?: string;
  force: boolean;
  json: boolean;
}

/** The rescore summary as text. */
export function formatRescore(r: RescoreSummary, outDir: string): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const out: string[] = [];
  out.push(`Re-scored ${n(r.wins)} wins of ${r.from} under ${r.profile}: ${n(r.changed)} changed tai.`);
  const played = [...new Set(r.arms.map((a) => a.before))].join(', ');
  if (r.noLongerWins > 0) {
    out.push(
      `${n(r.noLongerWins)} wins do not qualify under ${r.profile} (below its minimum, or not a win there): they are no longer wins and nobody pays them; ` +
        `${n(r.voidHands)} hands left without a winner are "void" (no payment, as a drawn hand).`,
    );
    for (const w of r.noLongerWinsList) out.push(`  deal ${w.deal} arm ${w.arm} seating ${w.seating} hand ${w.hand} (key ${w.handKey}) seat ${w.seat}: ${w.tai} tai`);
    if (r.noLongerWins > r.noLongerWinsList.length) out.push(`  … and ${n(r.noLongerWins - r.noLongerWinsList.length)} more`);
  }
  if (r.luck === 'raw') out.push(`${r.from} holds no luck features (a run records them with "record": ["luck-features"]): the rescored intervals are raw, not luck-adjusted.`);
  out.push(
    `What a rescore cannot know: every hand is as played under ${played}: who won, on which tile, and every claim and discard before. ` +
      `Under ${r.profile} play could have gone otherwise, and where a win no longer qualifies play would have gone on; ` +
      `to measure ${r.profile} itself, run the experiment with --rules ${r.profile}.`,
  );
  for (const a of r.arms) {
    out.push('', `Arm ${a.arm}: ${a.before} → ${a.after} (95% intervals clustered by deal, as in the run's summary)${a.voidShare && a.voidShare.mean > 0 ? `; void hands ${ci(a.voidShare, 1, 100)}%` : ''}`);
    out.push(table(['bot', 'tai/win before', 'after', 'points/hand before', 'after'], a.bots.map((b) => [b.bot, ci(b.taiPerWin.before), ci(b.taiPerWin.after), ci(b.pointsPerHand.before), ci(b.pointsPerHand.after)])));
    const moved = a.patterns.filter((p) => p.before > 0 || p.after > 0);
    if (moved.length > 0) {
      out.push('', table(['pattern', 'wins before', 'wins after', 'per 1,000 wins before', 'after'], moved.map((p) => [p.pattern, n(p.before), n(p.after), ci(p.per1000WinsBefore, 1), ci(p.per1000WinsAfter, 1)])));
    }
  }
  out.push('', `wrote ${outDir}/hands.arrow, wins.arrow, summary.json, rescore.json; compare with: tw16 diff ${r.from} ${outDir}`);
  return `${out.join('\n')}\n`;
}

export const rescoreCommand: CommandBody<RescoreArgs> = {
  builder: (y) =>
    y
      .positional('results', { type: 'string', demandOption: true, describe: 'result directory of a complete run' })
      .option('rules', { type: 'string', demandOption: true, describe: 'rule profile: a name, a house-rule .json file, or inline JSON like \'{"extends": "p0", "minTai": 1}\'' })
      .option('out', { type: 'string', describe: 'output directory (default: RESULTS-<profile>)' })
      .option('force', { type: 'boolean', default: false, describe: 'replace a complete result in the output directory' })
      .option('json', { type: 'boolean', default: false, describe: 'print rescore.json instead of text' }),
  handler: async (a) => {
    // The default directory is named after the profile (a file's name without .json; inline JSON's name, p0+overrides by default).
    const profile = rulesFlag(a.rules).name.replace(/^.*\//, '').replace(/\.json$/, '').replace(/[^\w.+-]/g, '_');
    const outDir = a.out ?? `${a.results.replace(/\/+$/, '')}-${profile}`;
    const r = await rescoreResults(a.results, a.rules, outDir, 20, a.force);
    process.stdout.write(a.json ? `${JSON.stringify(r, null, 2)}\n` : asTyped(formatRescore(r, outDir)));
  },
};
