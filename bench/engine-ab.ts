/**
 * The engine alone, this checkout against a base build: the same hands (`playHand`, one thread,
 * no records, luck off) played by each build's own engine and bots, in separate processes,
 * alternating, CPU time per hand of each process less its warm-up (medians).
 *
 *   npx tsc -p . && node dist/bench/engine-ab.js [--base 8db9eba] [--base-dir DIR] [--runs 5]
 *        [--bots greedy,random] [--hands 4000]
 *
 * Each process is bench/luck-cpu.mjs over the build's dist (luck off, p0, 200 warm-up hands on
 * other hand keys): it prints the CPU (user + system) of the timed hands. The hand position is passed
 * field by field, which every version of `playHand` takes. Line-ups: random, greedy, mix.
 */
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildAt, here, median, flag } from './base.js';

const args = process.argv.slice(2);

function main(): void {
  const base = flag('base', '8db9eba');
  const baseDir = args.includes('--base-dir') ? resolve(flag('base-dir', '')) : buildAt(base).dir;
  const runs = Number(flag('runs', '5'));
  const hands = Number(flag('hands', '4000'));
  const botsList = flag('bots', 'greedy,random').split(',');
  const child = join(here, 'bench', 'luck-cpu.mjs');
  const builds = [
    { name: `base ${base}`, dir: baseDir },
    { name: 'this checkout', dir: here },
  ];
  const times = new Map<string, number[]>();
  for (let r = 0; r < runs; r++) {
    for (const bot of botsList) {
      const order = r % 2 === 0 ? builds : [...builds].reverse();
      for (const b of order) {
        const out = spawnSync(process.execPath, [child, join(b.dir, 'dist'), bot, '0', String(hands), '200'], { encoding: 'utf8' });
        if (out.status !== 0) throw new Error(`engine-ab child failed (${b.name}, ${bot}): ${out.stderr}`);
        const us = (JSON.parse(out.stdout.trim().split('\n').pop()!) as { cpuUsPerHand: number }).cpuUsPerHand;
        const key = `${bot}\u0000${b.name}`;
        (times.get(key) ?? times.set(key, []).get(key)!).push(us);
        console.log(`  round ${r + 1}: ${bot.padEnd(10)} ${b.name.padEnd(16)} ${us.toFixed(1)} µs CPU a hand`);
      }
    }
  }
  console.log(`\nengine alone, p0, ${hands} hands a process, medians of ${runs} (µs CPU a hand)`);
  for (const bot of botsList) {
    const old = median(times.get(`${bot}\u0000${builds[0]!.name}`)!);
    const now = median(times.get(`${bot}\u0000${builds[1]!.name}`)!);
    console.log(`${bot.padEnd(10)} base ${old.toFixed(1)}  new ${now.toFixed(1)}  base/new ${(old / now).toFixed(3)} (> 1: new is faster)`);
  }
}

main();
