/**
 * `tw16 run EXPERIMENT [--hands N | --matches N] [--workers K] [--out DIR] [--seed S] [--batch D] [--resume]`
 */
import { join } from 'node:path';
import type { CommandModule } from 'yargs';
import { loadExperiment, type Experiment } from '../harness/experiment.js';
import { formatSummary } from '../harness/format.js';
import { runExperiment, type Progress } from '../harness/run.js';
import { UsageError } from '../core/errors.js';

interface RunArgs {
  experiment: string;
  hands?: number;
  matches?: number;
  workers?: number;
  out?: string;
  seed?: string;
  batch?: number;
  resume?: boolean;
  quiet?: boolean;
}

function positiveInt(name: string, v: number | undefined, min = 1): void {
  if (v !== undefined && (!Number.isInteger(v) || v < min)) throw new UsageError(`--${name}: expected a whole number ≥ ${min}, got ${v}`);
}

/** The experiment with command-line overrides applied. */
export function applyOverrides(e: Experiment, a: RunArgs): Experiment {
  positiveInt('hands', a.hands);
  positiveInt('matches', a.matches);
  if (a.hands !== undefined && e.unit !== 'hands') throw new UsageError(`--hands: ${e.source} plays whole matches; use --matches`);
  if (a.matches !== undefined && e.unit !== 'matches') throw new UsageError(`--matches: ${e.source} plays independent hands; use --hands`);
  return { ...e, deals: a.hands ?? a.matches ?? e.deals, seed: a.seed ?? e.seed };
}

function progressBar(): (p: Progress) => void {
  let last = 0;
  return (p) => {
    const now = performance.now();
    if (now - last < 200 && p.dealsDone < p.deals) return;
    last = now;
    const frac = p.dealsDone / p.deals;
    const width = 30;
    const filled = Math.round(frac * width);
    const rate = p.seconds > 0 ? p.hands / p.seconds : 0;
    const eta = frac > 0 ? (p.seconds * (1 - frac)) / frac : NaN;
    process.stderr.write(
      `\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(frac * 100).toFixed(1).padStart(5)}%  ${p.hands.toLocaleString('en-US')} hands  ${Math.round(rate).toLocaleString('en-US')} hands/s  ETA ${Number.isFinite(eta) ? `${Math.ceil(eta)}s` : '?'}   `,
    );
  };
}

export const runCommand: CommandModule<object, RunArgs> = {
  command: 'run <experiment>',
  describe: 'Play an experiment; write hands.arrow, wins.arrow and summary.json; print the summary',
  builder: (y) =>
    y
      .positional('experiment', { type: 'string', demandOption: true, describe: 'experiment JSON file' })
      .option('hands', { type: 'number', describe: 'number of independent hands (overrides the file)' })
      .option('matches', { type: 'number', describe: 'number of whole matches (overrides the file)' })
      .option('workers', { type: 'number', describe: 'worker threads; 0 runs in-process (default: cores)' })
      .option('out', { type: 'string', describe: 'output directory (default: results/<name>)' })
      .option('seed', { type: 'string', describe: 'experiment seed (overrides the file)' })
      .option('batch', { type: 'number', describe: 'deals per job (default: about 2,000 hands); never changes the output' })
      .option('resume', { type: 'boolean', default: false, describe: 'continue an interrupted run in the output directory' })
      .option('quiet', { type: 'boolean', default: false, describe: 'print no summary table' }),
  handler: async (a) => {
    const experiment = applyOverrides(loadExperiment(a.experiment), a);
    positiveInt('workers', a.workers, 0);
    positiveInt('batch', a.batch);
    const outDir = a.out ?? join('results', experiment.name);
    const controller = new AbortController();
    const hard = new AbortController();
    const onSigint = (): void => {
      if (controller.signal.aborted) {
        hard.abort();
        return;
      }
      process.stderr.write('\ntw16: interrupted; finishing the jobs in flight (Ctrl-C again to drop them)\n');
      controller.abort();
    };
    process.on('SIGINT', onSigint);
    const tty = process.stderr.isTTY === true;
    try {
      const r = await runExperiment({
        experiment,
        outDir,
        ...(a.workers !== undefined ? { workers: a.workers } : {}),
        ...(a.batch !== undefined ? { dealsPerJob: a.batch } : {}),
        resume: a.resume ?? false,
        signal: controller.signal,
        hardSignal: hard.signal,
        ...(tty ? { onProgress: progressBar() } : {}),
      });
      if (tty) process.stderr.write('\n');
      const rate = `${r.hands.toLocaleString('en-US')} hands in ${r.seconds.toFixed(1)} s: ${Math.round(r.handsPerSecond).toLocaleString('en-US')} hands/s`;
      if (r.status === 'complete') {
        if (!a.quiet && r.summary) process.stdout.write(`${experiment.name}: ${experiment.hypothesis}\n\n${formatSummary(r.summary)}\n`);
        process.stdout.write(`${rate}\nwrote ${join(outDir, 'hands.arrow')}, ${join(outDir, 'wins.arrow')}, ${join(outDir, 'summary.json')}\n`);
        try {
          const report = await (await import('../harness/report.js')).writeReport(outDir);
          process.stdout.write(`report: ${report.html} (tables: ${report.md})\n`);
        } catch (err) {
          process.stderr.write(`tw16: the run is complete but its report was not written: ${err instanceof Error ? err.message : String(err)}; try tw16 report ${outDir}\n`);
        }
        return;
      }
      const resume = `tw16 run ${a.experiment} --out ${outDir} --resume${a.hands !== undefined ? ` --hands ${a.hands}` : ''}${a.matches !== undefined ? ` --matches ${a.matches}` : ''}${a.seed !== undefined ? ` --seed ${a.seed}` : ''}`;
      process.stderr.write(
        `tw16: ${r.status === 'failed' ? `run stopped: ${r.error}` : 'run interrupted'}\n` +
          `kept ${r.dealsDone.toLocaleString('en-US')} of ${r.deals.toLocaleString('en-US')} deals (complete jobs only) in ${join(outDir, 'hands.partial.arrow')} and ${join(outDir, 'wins.partial.arrow')}; ${rate}\n` +
          `continue with: ${resume}\n`,
      );
      process.exitCode = r.status === 'failed' ? 1 : 130;
    } finally {
      process.off('SIGINT', onSigint);
    }
  },
};
