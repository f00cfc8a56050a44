// A build's engine, rules and bots, loaded from its dist directory, and the line-ups the luck
// benches play (luck-ab.mjs, luck-cpu.mjs; engine-ab.ts through luck-cpu.mjs). A plain module over
// a build directory, so the same file loads any commit's build.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** `{ getProfile, playHand, LuckAccount, lineups }` of the build in `dist` (line-ups by name: random, greedy, mix). */
export async function loadBuild(dist) {
  const at = (p) => pathToFileURL(resolve(dist, p)).href;
  const { getProfile } = await import(at('src/rules/index.js'));
  const { playHand, LuckAccount } = await import(at('src/engine/index.js'));
  const B = await import(at('bots/index.js'));
  const lineups = {
    random: [[B.random, B.random, B.random, B.random]],
    greedy: [[B.greedy, B.greedy, B.greedy, B.greedy]],
    mix: [
      [B.greedy, B.defensive, B.value, B.random],
      [B.random, B.greedy, B.defensive, B.value],
      [B.value, B.random, B.greedy, B.defensive],
      [B.defensive, B.value, B.random, B.greedy],
    ],
  };
  return { getProfile, playHand, LuckAccount, lineups };
}
