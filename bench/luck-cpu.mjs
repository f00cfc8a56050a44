// Hands in one thread, luck accounting on or off, for counting instructions per hand (issue 21).
// Usage: node bench/luck-cpu.mjs <dist dir> random|greedy|mix 0|1 <hands> [warm-up hands, default 3000]
// A plain script over a build directory, so the same file measures any commit's build.
// Instructions per hand, load-independent: the difference of two runs with the same warm-up
// cancels start-up and the JIT's compiles, which a short warm-up leaves inside the window
// (tens of thousands of instructions per hand of four random bots: measure after a long one):
//   c() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
//         node --single-threaded bench/luck-cpu.mjs "$@" 2>&1 | awk '/I *refs/ {gsub(",", "", $NF); print $NF}'; }
//   a=$(c dist random 1 1000); b=$(c dist random 1 9000); echo $(( (b - a) / 8000 ))
import { loadBuild } from './build.mjs';

const [dist, lineup, luckFlag, nStr, warmStr = '3000'] = process.argv.slice(2);
const { getProfile, playHand, LuckAccount, lineups } = await loadBuild(dist);
const rules = getProfile('p0');
const L = lineups[lineup];
if (!L || (luckFlag !== '0' && luckFlag !== '1') || !(Number(nStr) > 0) || !(Number(warmStr) >= 0)) {
  console.error('usage: node bench/luck-cpu.mjs <dist dir> random|greedy|mix 0|1 <hands> [warm-up hands]');
  process.exit(2);
}
const acc = luckFlag === '1' ? new LuckAccount() : undefined;
const n = Number(nStr);
let sink = 0;
const play = (k) => (sink += playHand({ rules, seed: 'cpu', handKey: k, dealer: k & 3, round: 0, streak: 0, bots: L[k % L.length], ...(acc ? { luck: acc } : {}) }).turns);
for (let k = 0; k < Number(warmStr); k++) play(1e6 + k); // warm-up: other hand keys
const c0 = process.cpuUsage();
for (let k = 0; k < n; k++) play(k);
const c = process.cpuUsage(c0);
const cpu = (c.user + c.system) / 1000;
console.log(JSON.stringify({ lineup, luck: luckFlag, n, cpuMs: Math.round(cpu), cpuUsPerHand: +((cpu * 1000) / n).toFixed(2), sink }));
