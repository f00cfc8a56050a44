/**
 * `tw16 report RESULTS_DIR`: write report.md and a self-contained report.html (tables and
 * SVG charts) for a finished run, from its summary.json and wins.arrow.
 */
import type { CommandModule } from 'yargs';
import { UsageError } from '../core/errors.js';

interface ReportArgs {
  results: string;
}

export const reportCommand: CommandModule<object, ReportArgs> = {
  command: 'report <results>',
  describe: 'Write report.md and report.html (tables and SVG charts) for a finished run',
  builder: (y) => y.positional('results', { type: 'string', demandOption: true, describe: 'output directory of a complete tw16 run' }),
  handler: async (a) => {
    // Loaded here, not at start-up: vega takes a few hundred ms to import.
    const { writeReport, ReportInputError } = await import('../harness/report.js');
    try {
      const files = await writeReport(a.results);
      process.stdout.write(`wrote ${files.md}, ${files.html}\n`);
    } catch (err) {
      if (err instanceof ReportInputError) throw new UsageError(err.message);
      throw err;
    }
  },
};
