/**
 * Result bytes per hand (issue 29: luck on ≤ 1.25× luck off by default): `tw16 run` of a line-up
 * with luck off, luck on as the default records it, and luck on with `--record luck-features` (the
 * 164 feature columns in hands.arrow), each into an emptied directory; the bytes of every file of the
 * result, and of hands.arrow alone, over the hands played. Bytes do not depend on the machine's load.
 *
 *   npx tsc -p . && node dist/bench/bytes.js [--lineup random,mix] [--scale 1]
 *
 * Line-ups: `random` (four random bots, fixed seating, 20,000 hands at scale 1) and `mix` (the default
 * experiment, experiments/default.json: duplicate seating, 200 deals = 4,800 hands).
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirBytes, here, timedNode, flag } from './base.js';

const SCALE = Number(flag('scale', '1'));
const LINEUPS = flag('lineup', 'random,mix').split(',');

const defaultExp = JSON.parse(readFileSync(join(here, 'experiments', 'default.json'), 'utf8')) as Record<string, unknown>;
const LINEUP: Record<string, { exp: Record<string, unknown>; deals: number; perDeal: number }> = {
  random: { exp: { name: 'bytes-random', seed: 'bytes-random', rules: 'p0', bots: ['random', 'random', 'random', 'random'], seating: 'fixed' }, deals: 20_000, perDeal: 1 },
  mix: { exp: { ...defaultExp }, deals: 200, perDeal: 24 },
};
const scratch = mkdtempSync(join(tmpdir(), 'tw16-bytes-'));
const tw16 = join(here, 'bin', 'tw16.js');
const out = join(scratch, 'out');

for (const name of LINEUPS) {
  const L = LINEUP[name];
  if (!L) throw new Error(`bytes: no line-up ${name} (random, mix)`);
  const deals = Math.max(1, Math.round(L.deals * SCALE));
  const hands = deals * L.perDeal;
  const row: string[] = [];
  let off = NaN;
  for (const [label, luck, extra] of [
    ['luck off', false, []],
    ['luck on', true, []],
    ['luck on, --record luck-features', true, ['--record', 'luck-features']],
  ] as const) {
    const file = join(scratch, `${name}-${label.replace(/\W+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ ...L.exp, hands: deals, luck }));
    rmSync(out, { recursive: true, force: true });
    const r = timedNode([tw16, 'run', file, '--out', out, '--quiet', ...extra]);
    if (r.status !== 0) throw new Error(`tw16 run ${file} failed (${r.status}): ${r.stderr}`);
    const all = dirBytes(out) / hands;
    const h = statSync(join(out, 'hands.arrow')).size / hands;
    if (!luck) off = all;
    row.push(`${label} ${all.toFixed(1)} B/hand (hands.arrow ${h.toFixed(1)})${luck ? `, ${(all / off).toFixed(2)}× luck off` : ''}`);
  }
  console.log(`${name}: ${hands.toLocaleString('en-US')} hands; result bytes per hand: ${row.join('; ')}`);
}
rmSync(scratch, { recursive: true, force: true });
