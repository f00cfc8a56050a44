/**
 * The engine alone, this checkout against a base build: the same hands (`playHand`, one thread,
 * no records, luck off) played by each build's own engine and bots, in separate processes,
 * alternating, CPU time per hand of each process less its warm-up (medians).
 *
 *   npx tsc -p . && node dist/bench/engine-ab.js [--base 8db9eba] [--base-dir DIR] [--runs 5]
 *        [--bots greedy,random] [--hands 4000] [--profile p0]
 *
 * A child (`--child DIR BOT HANDS PROFILE`) imports DIR's dist/src/engine, dist/src/rules and
 * dist/bots, plays 200 hands to warm up, then HANDS hands keyed 200.., four seats of BOT, and prints
 * the CPU (user + system) of the timed hands. The hand position is passed field by field, which
 * every version of `playHand` takes.
 */
import { pathToFileURL } from 'node:url';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { buildAt, here, median } from './base.js';

const args = process.argv.slice(2);
const flag = (name: string, dflt: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : dflt;
};

type PlayHand = (input: Record<string, unknown>) => { turns: number };

async function child(dir: string, bot: string, hands: number, profile: string): Promise<void> {
  const load = (p: string): Promise<Record<string, unknown>> => import(pathToFileURL(join(dir, 'dist', p)).href) as Promise<Record<string, unknown>>;
  const engine = await load('src/engine/index.js');
  const rulesMod = await load('src/rules/index.js');
  const bots = await load('bots/index.js');
  const playHand = engine['playHand'] as PlayHand;
  const rules = (rulesMod['getProfile'] as (n: string) => unknown)(profile);
  const factory = bots[bot];
  if (typeof factory !== 'function') throw new Error(`engine-ab: no bot ${bot} in ${dir}`);
  const line = [factory, factory, factory, factory];
  let sink = 0;
  const play = (k: number): void => {
    sink += playHand({ rules, seed: 'bench/engine-ab', handKey: k, dealer: k % 4, round: Math.floor(k / 4) % 4, streak: 0, bots: line }).turns;
  };
  for (let k = 0; k < 200; k++) play(k);
  const c0 = process.cpuUsage();
  for (let k = 200; k < 200 + hands; k++) play(k);
  const c = process.cpuUsage(c0);
  console.log(JSON.stringify({ cpuUs: c.user + c.system, sink }));
}

function main(): void {
  const base = flag('base', '8db9eba');
  const baseDir = args.includes('--base-dir') ? resolve(flag('base-dir', '')) : buildAt(base).dir;
  const runs = Number(flag('runs', '5'));
  const hands = Number(flag('hands', '4000'));
  const profile = flag('profile', 'p0');
  const botsList = flag('bots', 'greedy,random').split(',');
  const self = join(here, 'dist', 'bench', 'engine-ab.js');
  const builds = [
    { name: `base ${base}`, dir: baseDir },
    { name: 'this checkout', dir: here },
  ];
  const times = new Map<string, number[]>();
  for (let r = 0; r < runs; r++) {
    for (const bot of botsList) {
      const order = r % 2 === 0 ? builds : [...builds].reverse();
      for (const b of order) {
        const out = spawnSync(process.execPath, [self, '--child', b.dir, bot, String(hands), profile], { encoding: 'utf8' });
        if (out.status !== 0) throw new Error(`engine-ab child failed (${b.name}, ${bot}): ${out.stderr}`);
        const us = (JSON.parse(out.stdout.trim().split('\n').pop()!) as { cpuUs: number }).cpuUs / hands;
        const key = `${bot}\u0000${b.name}`;
        (times.get(key) ?? times.set(key, []).get(key)!).push(us);
        console.log(`  round ${r + 1}: ${bot.padEnd(10)} ${b.name.padEnd(16)} ${us.toFixed(1)} µs CPU a hand`);
      }
    }
  }
  console.log(`\nengine alone, ${profile}, ${hands} hands a process, medians of ${runs} (µs CPU a hand)`);
  for (const bot of botsList) {
    const old = median(times.get(`${bot}\u0000${builds[0]!.name}`)!);
    const now = median(times.get(`${bot}\u0000${builds[1]!.name}`)!);
    console.log(`${bot.padEnd(10)} base ${old.toFixed(1)}  new ${now.toFixed(1)}  base/new ${(old / now).toFixed(3)} (> 1: new is faster)`);
  }
}

if (args[0] === '--child') await child(args[1]!, args[2]!, Number(args[3]), args[4]!);
else main();
