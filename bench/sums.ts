/**
 * The luck sums file (src/harness/analysis/sumsfile.ts): how many sums a run's luck feed holds, the
 * file's bytes, and the CPU of encoding it (what each checkpoint of a luck-on run pays on the main
 * thread, run.ts CHECKPOINT_SUMS_FACTOR) and of decoding it (once, at a resume or per shard at a merge).
 *
 *   npx tsc -p . && node dist/bench/sums.js [--deals 100] [--rounds 7] [--exp default,multi]
 *
 * Per experiment (`default`: experiments/default.json, four bots, one rule arm; `multi`:
 * test/fixtures/experiments/multi.json, four bots, five rule arms), `--deals` deals are played in
 * this process with their luck features recorded, their rows fed to a LuckFitFeed as a run's, then
 * `--rounds` rounds of encode and decode: medians of each one's CPU (user + system of this process,
 * which does nothing else meanwhile) and wall. The sums do not grow with the deals, only the
 * varints' lengths (slowly), so a short run measures a long one's checkpoints.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cvKind, LuckFitFeed, seatingsReplay } from '../src/harness/analysis/summary.js';
import { decodeSums, encodeSums } from '../src/harness/analysis/sumsfile.js';
import { validateExperiment } from '../src/harness/experiment/experiment.js';
import { readBatches, toBatch } from '../src/harness/io/read.js';
import { handColumns } from '../src/harness/results/records.js';
import { runExperiment } from '../src/harness/run/run.js';
import { here, median, flag } from './base.js';

const DEALS = Number(flag('deals', '100'));
const ROUNDS = Number(flag('rounds', '7'));
const FILES: Record<string, string> = { default: 'experiments/default.json', multi: 'test/fixtures/experiments/multi.json' };

/** CPU and wall milliseconds of `fn`. */
function timed<T>(fn: () => T): { value: T; cpu: number; wall: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, cpu: (c.user + c.system) / 1000, wall };
}

console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
for (const name of flag('exp', 'default,multi').split(',')) {
  const file = join(here, FILES[name]!);
  const e = validateExperiment({ ...JSON.parse(readFileSync(file, 'utf8')), hands: DEALS, record: ['luck-features'] }, file, here);
  const dir = mkdtempSync(join(tmpdir(), 'tw16-bench-sums-'));
  try {
    await runExperiment({ experiment: e, outDir: dir, workers: 0 });
    const cols = handColumns(e);
    const feed = new LuckFitFeed(cols, seatingsReplay(e.seating), [], cvKind(e.seating));
    for await (const rb of readBatches(join(dir, 'hands.arrow'))) feed.add(toBatch(rb, cols));
    const t = feed.transfer();
    const sums = [...t.fit.flatMap((s) => s.folds), ...t.cv].reduce((n, a) => n + a.hi.length, 0);
    const enc: { cpu: number; wall: number }[] = [];
    const dec: { cpu: number; wall: number }[] = [];
    let bytes: Uint8Array = new Uint8Array(0);
    for (let r = 0; r < ROUNDS; r++) {
      const x = timed(() => encodeSums(t, { first: 0, end: e.deals }));
      bytes = x.value;
      enc.push(x);
      dec.push(timed(() => decodeSums(bytes, 'bench')));
    }
    const ms = (xs: { cpu: number; wall: number }[]): string => `${median(xs.map((x) => x.cpu)).toFixed(1)} ms CPU, ${median(xs.map((x) => x.wall)).toFixed(1)} ms wall`;
    console.log(`${name} (${DEALS} deals, ${e.rules.length} rule arm${e.rules.length === 1 ? '' : 's'}): ${sums.toLocaleString('en-US')} sums, ${(bytes.length / 1e6).toFixed(2)} MB (${(bytes.length / sums).toFixed(2)} bytes a sum; as two doubles ${((sums * 16) / 1e6).toFixed(1)} MB); encode ${ms(enc)}; decode ${ms(dec)} (medians of ${ROUNDS})`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
