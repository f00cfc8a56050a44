/**
 * Bot programs (docs/protocol.md): hands/s with four Python random bots (bots/examples/python/
 * random_bot.py), batching on (64 tables a worker, the default) and off (--tables 1), and the
 * cost per decision: the time of a request line divided by its decisions.
 *
 *   npx tsc -p . && node dist/bench/protocol.js [HANDS] [WORKERS]
 *
 * Rows: one program in all four seats vs four programs (one per seat); decisions without the view
 * (the random bot's hello says view: false) vs with it (--view: every field of the seat's view
 * on every decision). "in-process" plays one job in this thread (the figures per decision come
 * from there); "tw16 run" is the whole run (workers, Arrow files, summary, reports) end to end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { validateExperiment } from '../src/harness/experiment/experiment.js';
import { runJob } from '../src/harness/run/job.js';
import { runExperiment } from '../src/harness/run/run.js';
import { closePrograms } from '../src/harness/run/tables.js';

const HANDS = Number(process.argv[2] ?? 4000);
const WORKERS = Number(process.argv[3] ?? 2);
const BOT = fileURLToPath(new URL('../../bots/examples/python/random_bot.py', import.meta.url));

function experiment(programs: 1 | 4, view: boolean, hands: number) {
  const args = view ? ['--view'] : [];
  const bots = programs === 1 ? [{ name: 'py', command: ['python3', BOT, ...args] }, { name: 'py', command: ['python3', BOT, ...args] }] : [1, 2, 3, 4].map((i) => ({ name: `py${i}`, command: ['python3', BOT, ...args] }));
  return validateExperiment({ name: 'protocol-bench', seed: 'protocol-bench', hands, seating: 'fixed', bots }, 'bench', tmpdir());
}

const rows: string[][] = [['programs', 'view', 'tables', 'in-process hands/s', 'decisions/request', 'µs/decision', `tw16 run --workers ${WORKERS} hands/s`]];
for (const programs of [1, 4] as const) {
  for (const view of [false, true]) {
    for (const tables of [64, 1]) {
      const e = experiment(programs, view, HANDS);
      await runJob({ experiment: e, index: 0, firstDeal: 0, deals: 50, tables }); // start the programs, warm up
      const stats = { requests: 0, decisions: 0 };
      const n = Math.min(HANDS, 2000);
      const t0 = performance.now();
      const r = await runJob({ experiment: e, index: 0, firstDeal: 50, deals: n, tables }, undefined, stats);
      const ms = performance.now() - t0;
      await closePrograms();
      const out = mkdtempSync(join(tmpdir(), 'tw16-protocol-bench-'));
      const run = await runExperiment({ experiment: e, outDir: out, workers: WORKERS, tables });
      rmSync(out, { recursive: true, force: true });
      rows.push([
        String(programs),
        view ? 'yes' : 'no',
        tables === 1 ? '1 (off)' : String(tables),
        Math.round((r.played / ms) * 1000).toLocaleString('en-US'),
        (stats.decisions / stats.requests).toFixed(1),
        ((ms * 1000) / stats.decisions).toFixed(1),
        Math.round(run.handsPerSecond).toLocaleString('en-US'),
      ]);
      process.stderr.write(`${rows.at(-1)!.join('  ')}\n`);
    }
  }
}
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
for (const r of rows) process.stdout.write(`${r.map((c, i) => c.padStart(widths[i]!)).join('  ')}\n`);
