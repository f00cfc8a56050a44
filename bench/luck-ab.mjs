// Luck accounting's cost, two or more builds in one process: the same hands (p0, one line-up)
// played in batches, each build with luck off and on in turn, so a change of load hits all alike.
// Usage: node bench/luck-ab.mjs random|greedy|mix <rounds> <hands a batch> <dist dir> [<dist dir> …]
// Prints per build the medians of µs per hand (process.cpuUsage) luck off and on and their
// ratio, and with two builds the second's luck-on time over the first's (median of the rounds).
// A plain script over build directories, so the same file measures any commit's build.
import { loadBuild } from './build.mjs';

const [lineup, roundsStr, batchStr, ...dists] = process.argv.slice(2);
const rounds = Number(roundsStr);
const batch = Number(batchStr);
if (!['random', 'greedy', 'mix'].includes(lineup) || !(rounds > 0) || !(batch > 0) || dists.length === 0) {
  console.error('usage: node bench/luck-ab.mjs random|greedy|mix <rounds> <hands a batch> <dist dir> [<dist dir> …]');
  process.exit(2);
}
const builds = [];
for (const dist of dists) {
  const { getProfile, playHand, LuckAccount, lineups } = await loadBuild(dist);
  builds.push({ dist, rules: getProfile('p0'), playHand, acc: new LuckAccount(), L: lineups[lineup] });
}
let sink = 0;
const run = (b, luck, k0, n) => {
  for (let k = k0; k < k0 + n; k++) sink += b.playHand({ rules: b.rules, seed: 'cpu', handKey: k, dealer: k & 3, round: 0, streak: 0, bots: b.L[k % b.L.length], ...(luck ? { luck: b.acc } : {}) }).turns;
};
for (const b of builds) {
  run(b, false, 1e6, batch * 4); // warm-up: other hand keys
  run(b, true, 1e6, batch * 4);
}
const t = builds.map(() => [[], []]);
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < builds.length; i++) {
    for (const luck of [0, 1]) {
      const c0 = process.cpuUsage();
      run(builds[i], luck === 1, r * batch, batch);
      const c = process.cpuUsage(c0);
      t[i][luck].push((c.user + c.system) / batch);
    }
  }
}
const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
builds.forEach((b, i) => {
  const ratio = med(t[i][1].map((x, j) => x / t[i][0][j]));
  console.log(`${lineup} ${b.dist}: luck off ${med(t[i][0]).toFixed(1)} µs/hand, on ${med(t[i][1]).toFixed(1)} (medians of ${rounds}); on / off ${ratio.toFixed(3)}`);
});
if (builds.length === 2) console.log(`luck-on time, second build / first: ${med(t[1][1].map((x, j) => x / t[0][1][j])).toFixed(3)}`);
if (sink < 0) console.log(sink);
