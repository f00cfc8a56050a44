/**
 * `tw16 rescore RESULTS --rules PROFILE [--out DIR] [--force] [--json]`: RESULTS must be a complete
 * result (checked against its manifest); DIR becomes one (staged, manifest last).
 */
import type { CommandModule } from 'yargs';
import { ci, table } from '../harness/analysis/format.js';
import { rescoreResults, type RescoreSummary } from '../harness/analysis/rescore.js';
import { rulesFlag } from './flags.js';

interface RescoreArgs {
  results: string;
  rules: string;
  out?: string;
  force: boolean;
  json: boolean;
}

/** The rescore summary as text. */
export function formatRescore(r: RescoreSummary, outDir: string): string {
  const out: string[] = [];
  out.push(`Re-scored ${r.wins.toLocaleString('en-US')} wins of ${r.from} under ${r.profile}: ${r.changed.toLocaleString('en-US')} changed tai`);
  out.push(`tai per win: ${ci(r.taiPerWin.before)} → ${ci(r.taiPerWin.after)}`);
  out.push(`no longer wins (below the minimum or not valid): ${r.noLongerWins.toLocaleString('en-US')}`);
  for (const w of r.noLongerWinsList) out.push(`  deal ${w.deal} arm ${w.arm} seating ${w.seating} hand ${w.hand} (key ${w.handKey}) seat ${w.seat}: ${w.tai} tai`);
  const moved = r.patterns.filter((p) => p.before !== p.after || p.before > 0);
  out.push('', table(['pattern', 'wins before', 'wins after', 'per 1,000 wins before', 'after'], moved.map((p) => [p.pattern, String(p.before), String(p.after), ci(p.per1000WinsBefore, 1), ci(p.per1000WinsAfter, 1)])));
  out.push('', `wrote ${outDir}/hands.arrow, wins.arrow, summary.json, rescore.json; compare with: tw16 diff ${r.from} ${outDir}`);
  return `${out.join('\n')}\n`;
}

export const rescoreCommand: CommandModule<object, RescoreArgs> = {
  command: 'rescore <results>',
  describe: 'Re-score every stored win of a run under another profile, without replaying',
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
    process.stdout.write(a.json ? `${JSON.stringify(r, null, 2)}\n` : formatRescore(r, outDir));
  },
};
