/**
 * `tw16 report RESULTS_DIR`: write report.md and a self-contained report.html (tables and
 * SVG charts) for a finished run, from its summary.json and wins.arrow.
 */
import type { CommandBody } from './command.js';

interface ReportArgs {
  results: string;
}

export const reportCommand: CommandBody<ReportArgs> = {
  builder: (y) => y.positional('results', { type: 'string', demandOption: true, describe: 'a complete result directory (tw16 run or rescore; checked against its manifest.json)' }),
  handler: async (a) => {
    // Loaded here, not at start-up: `tw16 --version` and the other commands never need it.
    const { writeReport } = await import('../harness/analysis/report.js');
    const files = await writeReport(a.results);
    process.stdout.write(`wrote ${files.md}, ${files.html}\n`);
  },
};
