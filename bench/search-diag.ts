/**
 * Where the search bot loses value: cheap diagnostics over a few hundred decisions.
 *  1. Opponents' model: the shanten of each other seat's hand at a turn of greedy self-play
 *     (the real hand) against the same seat's hand in worlds sampled from the deciding seat's
 *     view (uniform, and with the `nearReady` option), by how many tiles that seat has discarded.
 *  2. Deviations (`deviations` as third argument): at decisions of greedy self-play, where a search
 *     variant chooses other than greedy, what that choice is worth in the real world: both
 *     actions played out (greedy in every seat) on the real hands with the wall dealt again at
 *     random (EVALS times, default 64; the same worlds for the same deviation in every variant),
 *     their mean difference in the seat's points. By kind of deviation, per variant; the sum over
 *     decisions per seat-hand approximates what the variant adds to greedy. Variants: worlds with
 *     `readyWaits` alone (`uniform`: the bot as first built), `nearReady` worlds, a lower margin,
 *     4× the budget, worlds conditioned on each seat's discards (`discards`; with `nearReady`:
 *     the built-in), and oracles that read the real table (every other hand; only declared-ready ones; only the others) — the
 *     most a better opponents' model could give with these candidates and rollouts.
 *
 *  3. Waits (`waits`): how well each way of drawing worlds knows the waits of a seat that declared
 *     ready. At every third turn of greedy self-play, for each other seat that declared ready,
 *     48 worlds are drawn from the deciding seat's view; a kind's sampled chance of being a wait
 *     is the share of worlds whose hand for that seat wins on it. Printed: the mean chance given
 *     to the real waits and to the other live kinds, their ratio (lift: 1 knows nothing, an
 *     oracle's is unbounded), and the mean log chance of the real waits; and how often hands (real,
 *     sampled) explain their seat's discards badly: not ready, holding back a discard would lower
 *     the shanten; declared ready, it waits on one of its discards.
 *
 * Run (under the CPU lock): npx tsc -p . && node dist/bench/search-diag.js [profile] [hands] [shanten|deviations|waits]
 * (env: VARIANTS=name,name picks variants; FROM the first hand (default 0); BUDGET rollouts a decision, default 64; EVALS; WORLDS a JSON
 * SampleOptions for the variant `custom`, e.g. '{"readyWaits":true,"discards":{"kept":0.5}}')
 */
import { getProfile } from '../src/rules/index.js';
import { makeRng } from '../src/core/rng.js';
import { HandState } from '../src/hand/index.js';
import { actionKind, kindName, handPosition, sampleWorld, Table, type Action, type SampleOptions, type View } from '../src/engine/index.js';
import { greedy } from '../bots/index.js';
import { playOut, searchBot, type SearchOptions } from '../bots/search.js';

const rules = getProfile(process.argv[2] ?? 'p0');
const HANDS = Number(process.argv[3] ?? 100);
const MODE = process.argv[4] ?? 'shanten';
const SAMPLES = 8;
const BUCKETS = [0, 3, 6, 9, 12, 99];
const bucketOf = (d: number) => BUCKETS.findIndex((b, i) => d >= b && d < BUCKETS[i + 1]!);

if (MODE === 'deviations') deviations();
else if (MODE === 'waits') waits();
else shantens();

/**
 * HANDS hands of greedy self-play (hand keys 0…), `visit` called at every third turn of each with
 * the table, the deciding seat's view, the seat, the hand key and the turn's count (1 at the first).
 */
function everyThirdTurn(visit: (t: Table, view: View, s: number, k: number, turn: number) => void): void {
  for (let k = 0; k < HANDS; k++) {
    const t = new Table().reset({ ...handPosition(k), rules, seed: 'search-diag' });
    const g = greedy(0, makeRng('g'), rules);
    let turn = 0;
    while (!t.isOver()) {
      const s = t.pendingSeat(0);
      if (t.decisionPhase() === 'turn' && turn++ % 3 === 0) visit(t, t.view(s), s, k, turn);
      t.apply(s, g.decide(t.view(s), Array.from(t.legalOf(s))));
    }
  }
}

function shantens(): void {
  const variants: [string, SampleOptions][] = [
    ['uniform', {}],
    ['nearReady', { nearReady: true }],
  ];
  const real = BUCKETS.slice(0, -1).map(() => ({ n: 0, sum: 0 }));
  const sampled = variants.map(() => BUCKETS.slice(0, -1).map(() => ({ n: 0, sum: 0 })));
  const rng = makeRng('search-diag');
  const world = new Table();
  const h = new HandState();
  everyThirdTurn((t, view, s) => {
    for (let o = 0; o < 4; o++) {
      if (o === s || view.isReady(o)) continue;
      const b = bucketOf(view.discardCount(o));
      real[b]!.n++;
      real[b]!.sum += t.hands[o]!.shanten();
      variants.forEach(([, opts], v) => {
        for (let i = 0; i < SAMPLES; i++) {
          sampleWorld(view, rng, world, opts);
          sampled[v]![b]!.n++;
          sampled[v]![b]!.sum += h.load(world.hand.subarray(o * 34, o * 34 + 34), view.meldCount(o)).shanten();
        }
      });
    }
  });
  console.log(`search-diag: profile ${rules.name}, ${HANDS} greedy hands; mean shanten of the other seats' (not ready) hands at every 3rd turn`);
  console.log(['discards', 'real', ...variants.map(([n]) => n)].join('\t'));
  for (let b = 0; b < BUCKETS.length - 1; b++) {
    const r = real[b]!;
    if (!r.n) continue;
    console.log([`${BUCKETS[b]}–${BUCKETS[b + 1]! - 1} (${r.n})`, (r.sum / r.n).toFixed(2), ...sampled.map((s) => (s[b]!.sum / s[b]!.n).toFixed(2))].join('\t'));
  }
}

function waits(): void {
  const variants: [string, SampleOptions][] = [
    ['readyWaits', { readyWaits: true }],
    ['readyWaits + nearReady', { readyWaits: true, nearReady: true }],
    ['readyWaits + discards', { readyWaits: true, discards: true }],
    ['readyWaits + nearReady + discards (search)', { readyWaits: true, nearReady: true, discards: true }],
  ];
  const WORLDS = 48;
  const world = new Table();
  const tally = variants.map(() => ({ waits: 0, onWaits: 0, others: 0, onOthers: 0, log: 0 }));
  let seats = 0;
  /** Hands that explain their seat's discards badly: not ready, holding back a discard would lower the shanten; ready, waiting on a discard. Real hands first, then each variant's first world. */
  const misfits = [{ name: 'real hands', ...misfitTally() }, ...variants.map(([name]) => ({ name, ...misfitTally() }))];
  const misfit = (h: HandState, view: View, o: number, into: ReturnType<typeof misfitTally>) => {
    const own = Array.from({ length: view.discardCount(o) }, (_, i) => view.discardAt(o, i)).filter((d) => h.counts[d]! < 4);
    const sh = h.shanten();
    if (view.isReady(o)) (into.ready++, (into.readyWaitsOwn += own.some((d) => h.winsWith(d)) ? 1 : 0));
    else if (sh > 0) (into.unready++, (into.unreadyKept += own.some((d) => h.shantenAfterDraw(d) < sh) ? 1 : 0));
  };
  everyThirdTurn((t, view, s, k, turn) => {
    for (let o = 0; o < 4; o++) {
      if (o === s || view.discardCount(o) === 0) continue;
      misfit(t.hands[o]!, view, o, misfits[0]!);
      variants.forEach(([name, opts], v) => misfit(sampleWorld(view, makeRng(`search-diag misfit ${name} ${k} ${turn} ${o}`), world, opts).hands[o]!, view, o, misfits[v + 1]!));
      if (!view.isReady(o)) continue;
      seats++;
      const real = new Set(t.hands[o]!.waits());
      variants.forEach(([name, opts], v) => {
        const rng = makeRng(`search-diag waits ${name} ${k} ${turn} ${o}`);
        const hits = new Float64Array(34);
        for (let i = 0; i < WORLDS; i++) {
          const h = sampleWorld(view, rng, world, opts).hands[o]!;
          for (let x = 0; x < 34; x++) if (h.counts[x]! < 4 && h.winsWith(x)) hits[x]!++;
        }
        const r = tally[v]!;
        for (let x = 0; x < 34; x++) {
          if (view.visible(x) + view.hand[x]! >= 4) continue; // no copy left to deal in
          if (real.has(x)) (r.waits++, (r.onWaits += hits[x]! / WORLDS), (r.log += Math.log((hits[x]! + 0.5) / (WORLDS + 1))));
          else (r.others++, (r.onOthers += hits[x]! / WORLDS));
        }
      });
    }
  });
  console.log(`search-diag waits: profile ${rules.name}, ${HANDS} greedy hands, ${seats} declared-ready seats at every 3rd turn, ${WORLDS} worlds each`);
  variants.forEach(([name], v) => {
    const r = tally[v]!;
    const onWaits = r.onWaits / r.waits;
    const onOthers = r.onOthers / r.others;
    console.log(`${name}: chance given to the real waits ${onWaits.toFixed(3)}, to the other live kinds ${onOthers.toFixed(4)}, lift ${(onWaits / onOthers).toFixed(2)}; mean log chance of a real wait ${(r.log / r.waits).toFixed(2)}`);
  });
  console.log('Hands that explain their seat\'s discards badly (not ready: a discard, held back, would lower its shanten; declared ready: it waits on one of its discards):');
  for (const m of misfits) console.log(`${m.name}: not ready ${((100 * m.unreadyKept) / m.unready).toFixed(1)}% of ${m.unready}; ready ${((100 * m.readyWaitsOwn) / m.ready).toFixed(1)}% of ${m.ready}`);
}

function misfitTally() {
  return { unready: 0, unreadyKept: 0, ready: 0, readyWaitsOwn: 0 };
}

function deviations(): void {
  const EVALS = Number(process.env.EVALS ?? 64);
  const BUDGET = Number(process.env.BUDGET ?? 64);
  /** The first hand (hands FROM … FROM + hands − 1: a long diagnostic split into runs). */
  const FROM = Number(process.env.FROM ?? 0);
  let real: Table | null = null;
  /** The oracle: the real hands, the live wall dealt again from the seat's stream. */
  const cheat = (view: unknown, rng: () => number, into: Table) => {
    into.copyFrom(real!);
    into.onStep = null;
    into.luck = null;
    reshuffleWall(into, rng);
  };
  /** A half oracle: the real hands of the other seats that have (`ready`) or have not declared ready; the rest of the hidden tiles dealt again uniformly. */
  const halfOracle = (ready: boolean) => (view: { seat: number }, rng: () => number, into: Table) => {
    into.copyFrom(real!);
    into.onStep = null;
    into.luck = null;
    const tiles: number[] = [];
    const redeal = [0, 1, 2, 3].filter((s) => s !== view.seat && (into.ready[s] !== 0) !== ready);
    for (const s of redeal) for (let k = 0; k < 34; k++) for (let c = into.hand[s * 34 + k]!; c > 0; c--) tiles.push(k);
    const flowers: number[] = [];
    for (let i = into.front; i < into.end; i++) (into.wall[i]! >= 34 ? flowers : tiles).push(into.wall[i]!);
    for (let i = tiles.length - 1; i > 0; i--) {
      const j = Math.floor(rng() * (i + 1));
      [tiles[i], tiles[j]] = [tiles[j]!, tiles[i]!];
    }
    let p = 0;
    for (const s of redeal) {
      const size = into.hands[s]!.tiles;
      into.hand.fill(0, s * 34, s * 34 + 34);
      for (let i = 0; i < size; i++) into.hand[s * 34 + tiles[p++]!]!++;
    }
    const rest = [...tiles.slice(p), ...flowers];
    for (let i = 0; i < rest.length; i++) into.wall[into.front + i] = rest[i]!;
    reshuffleWall(into, rng);
    into.openDecision();
  };
  const variants: [string, number, SearchOptions][] = [
    ['uniform', BUDGET, { worlds: { readyWaits: true } }],
    ['nearReady', BUDGET, { worlds: { readyWaits: true, nearReady: true } }],
    ['nearReady margin 1', BUDGET, { worlds: { readyWaits: true, nearReady: true }, margin: 1 }],
    ['nearReady ×4 budget', BUDGET * 4, { worlds: { readyWaits: true, nearReady: true } }],
    ['discards', BUDGET, { worlds: { readyWaits: true, discards: true } }],
    ['nearReady discards', BUDGET, { worlds: { readyWaits: true, nearReady: true, discards: true } }],
    ['custom', BUDGET, { worlds: JSON.parse(process.env.WORLDS ?? '{}') as SampleOptions }],
    ['oracle hands', BUDGET, { sampler: cheat }],
    ['oracle ready hands', BUDGET, { sampler: halfOracle(true) }],
    ['oracle unready hands', BUDGET, { sampler: halfOracle(false) }],
  ].filter(([name]) => !process.env.VARIANTS || process.env.VARIANTS.split(',').includes(name as string)) as [string, number, SearchOptions][];
  const w = new Table();
  const wa = new Table();
  const wg = new Table();
  /** Mean over EVALS of (a − g) for `seat`, on the real hands with the live wall reshuffled. */
  const worth = (t: Table, seat: number, a: Action, g: Action, key: string): number => {
    // The same deviation gets the same worlds whichever variants run (paired comparisons).
    const evalRng = makeRng(`search-diag eval ${key} ${a} ${g}`);
    let sum = 0;
    for (let i = 0; i < EVALS; i++) {
      w.copyFrom(t);
      w.onStep = null;
      w.luck = null;
      reshuffleWall(w, evalRng);
      wa.copyFrom(w);
      wa.step(seat, a);
      wg.copyFrom(w);
      wg.step(seat, g);
      sum += playOut(wa, seat) - playOut(wg, seat);
    }
    return sum / EVALS;
  };
  const tallies = variants.map(() => new Map<string, { n: number; sum: number; squares: number }>());
  let decisions = 0;
  let seatHands = 0;
  for (let k = FROM; k < FROM + HANDS; k++) {
    const t = new Table().reset({ ...handPosition(k), rules, seed: 'search-diag' });
    const g = greedy(0, makeRng('g'), rules);
    real = t;
    const bots = variants.map(([, n, o]) => [0, 1, 2, 3].map((s) => searchBot(n, o)(s, makeRng(`diag-${k}-${s}`), rules)));
    seatHands += 4;
    while (!t.isOver()) {
      const seats = Array.from({ length: t.pendingCount() }, (_, i) => t.pendingSeat(i));
      const moves = seats.map((s) => {
        const view = t.view(s);
        const legal = Array.from(t.legalOf(s));
        const mine = g.decide(view, legal);
        if (legal.length > 1 && actionKind(mine) !== 1) {
          decisions++;
          variants.forEach((_, v) => {
            const a = bots[v]![s]!.decide(t.view(s), legal);
            if (a === mine) return;
            const d = worth(t, s, a, mine, `${k}/${decisions}`);
            const key = `${kindName(actionKind(mine))}→${kindName(actionKind(a))}`;
            const r = tallies[v]!.get(key) ?? { n: 0, sum: 0, squares: 0 };
            r.n++;
            r.sum += d;
            r.squares += d * d;
            tallies[v]!.set(key, r);
          });
        }
        return mine;
      });
      seats.forEach((s, i) => t.apply(s, moves[i]!));
    }
  }
  console.log(`search-diag deviations: profile ${rules.name}, ${HANDS} greedy hands from hand ${FROM}, ${decisions} decisions with a choice, search:${BUDGET}; each deviation's worth from ${EVALS} real-hands worlds`);
  variants.forEach(([name, budget], v) => {
    let n = 0;
    let sum = 0;
    let squares = 0;
    for (const [key, r] of [...tallies[v]!].sort()) {
      const mean = r.sum / r.n;
      const se = Math.sqrt(Math.max(0, r.squares / r.n - mean * mean) / Math.max(1, r.n - 1));
      console.log(`  ${name}\t${key}\t${r.n} deviations\tmean worth ${mean.toFixed(3)} ± ${se.toFixed(3)}\ttotal ${r.sum.toFixed(1)}`);
      n += r.n;
      sum += r.sum;
      squares += r.squares;
    }
    console.log(`${name} (search:${budget}): ${n} deviations (${((100 * n) / decisions).toFixed(1)}% of decisions), worth ${(sum / seatHands).toFixed(3)} ± ${(Math.sqrt(squares) / seatHands).toFixed(3)} (one SE, deviations taken as independent) points per seat-hand`);
  });
}

/** Deal the live wall of `t` again at random (the dead wall's place stays the back of it). */
function reshuffleWall(t: Table, rng: () => number): void {
  for (let j = t.end - 1; j > t.front; j--) {
    const r = t.front + Math.floor(rng() * (j - t.front + 1));
    const x = t.wall[j]!;
    t.wall[j] = t.wall[r]!;
    t.wall[r] = x;
  }
}
