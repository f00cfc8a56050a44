/**
 * Bot programs (docs/protocol.md): hands/s of Python bots speaking tw16-bot/1.
 *
 *   npx tsc -p . && node dist/bench/protocol.js [HANDS] [WORKERS] [yardstick|random|all]
 *
 * yardstick (the default): bots/examples/python/first_legal_bot.py in all four seats (one
 * program per worker), which reads its hand and every river at each decision and plays the first
 * legal action, so what it costs is the protocol's: on tw16's JSON view (--view=json, as every
 * view-reading bot did before compact decisions) and on compact decisions folded by the helper
 * (the default). `tw16 run` end to end (workers, Arrow files, summary, reports; luck off), the
 * two alternated three times, medians and their ratio — alternating keeps them on the same
 * machine state, which matters on a shared machine.
 *
 * random: Python random bots (random_bot.py), one program in all four seats vs four programs
 * (one per seat), decisions without the view vs with it (--view), batching on (64 tables a
 * worker, the default) and off (--tables 1); "in-process" plays one job in this thread (the
 * figures per decision come from there), "tw16 run" is the whole run end to end.
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
const WHAT = process.argv[4] ?? 'yardstick';
const PY = fileURLToPath(new URL('../../bots/examples/python/', import.meta.url));

function experiment(bot: string, programs: 1 | 4, args: string[], hands: number) {
  const command = ['python3', join(PY, bot), ...args];
  const bots = programs === 1 ? [{ name: 'py', command }, { name: 'py', command }] : [1, 2, 3, 4].map((i) => ({ name: `py${i}`, command }));
  return validateExperiment({ name: 'protocol-bench', seed: 'protocol-bench', hands, seating: 'fixed', luck: false, bots }, 'bench', tmpdir());
}

async function endToEnd(e: ReturnType<typeof experiment>, tables: number): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'tw16-protocol-bench-'));
  const run = await runExperiment({ experiment: e, outDir: out, workers: WORKERS, tables });
  rmSync(out, { recursive: true, force: true });
  return run.handsPerSecond;
}

function print(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  for (const r of rows) process.stdout.write(`${r.map((c, i) => c.padStart(widths[i]!)).join('  ')}\n`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

if (WHAT === 'yardstick' || WHAT === 'all') {
  const modes = [
    { view: 'JSON (--view=json)', args: ['--view=json'] },
    { view: 'compact, folded (default)', args: [] },
  ];
  const got: number[][] = modes.map(() => []);
  for (let round = 0; round < 3; round++) {
    for (const [i, m] of modes.entries()) {
      const r = await endToEnd(experiment('first_legal_bot.py', 1, m.args, HANDS), 64);
      got[i]!.push(r);
      process.stderr.write(`${m.view}: ${fmt(r)} hands/s\n`);
    }
  }
  const rows = [['first_legal_bot.py, 1 program in all four seats', 'view', `tw16 run --workers ${WORKERS}, ${HANDS.toLocaleString('en-US')} hands: hands/s (3 runs)`, 'median']];
  modes.forEach((m, i) => rows.push(['', m.view, got[i]!.map(fmt).join(', '), fmt(median(got[i]!))]));
  print(rows);
  process.stdout.write(`compact / JSON: ${(median(got[1]!) / median(got[0]!)).toFixed(2)}×\n\n`);
}

if (WHAT === 'random' || WHAT === 'all') {
  const rows: string[][] = [['programs', 'view', 'tables', 'in-process hands/s', 'decisions/request', 'µs/decision', `tw16 run --workers ${WORKERS} hands/s`]];
  for (const programs of [1, 4] as const) {
    for (const view of [false, true]) {
      for (const tables of [64, 1]) {
        const e = experiment('random_bot.py', programs, view ? ['--view'] : [], HANDS);
        await runJob({ experiment: e, index: 0, firstDeal: 0, deals: 50, tables }); // start the programs, warm up
        const stats = { requests: 0, decisions: 0 };
        const n = Math.min(HANDS, 2000);
        const t0 = performance.now();
        const r = await runJob({ experiment: e, index: 0, firstDeal: 50, deals: n, tables }, undefined, stats);
        const ms = performance.now() - t0;
        await closePrograms();
        rows.push([
          String(programs),
          view ? 'yes' : 'no',
          tables === 1 ? '1 (off)' : String(tables),
          fmt((r.played / ms) * 1000),
          (stats.decisions / stats.requests).toFixed(1),
          ((ms * 1000) / stats.decisions).toFixed(1),
          fmt(await endToEnd(e, tables)),
        ]);
        process.stderr.write(`${rows.at(-1)!.join('  ')}\n`);
      }
    }
  }
  print(rows);
}
