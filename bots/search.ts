/**
 * search — plays its candidate actions out in worlds sampled from its view and takes the one
 * with the best mean points (Monte Carlo search over determinizations: OpenSpiel's
 * `ResampleFromInfostate`, Mizukami and Tsuruoka's Monte Carlo Mahjong player).
 *
 * A decision with a choice: in a turn, the discards greedy rates best (lowest shanten, then
 * most improving tiles), each also as a ready declaration where one is legal, and every kong;
 * in a claim window, passing and every claim. Candidates are played out in the same worlds
 * (common random numbers: `sampleWorld` from the seat's view, drawn from the seat's own stream,
 * the opponents' hands shaped by `SEARCH_WORLDS`), every seat playing greedy to the end of the
 * hand, and scored by the seat's points; greedy's own choice stands unless the best other one
 * beats it on fresh worlds by more than the noise (`best`). The budget
 * is a number of rollouts per decision (`search:N`), never time, so a run stays a pure function
 * of (experiment, seed, version). A single legal action, a win (always taken) and a choice that
 * pruning leaves single cost nothing.
 */
import { ActionKind, actionKind, actionTile, sampleWorld, Table, type Action, type BotFactory, type Rng, type SampleOptions, type View } from '../src/index.js';
import { findAction, sharedHandEval, type HandEval } from './lib.js';
import { greedyDecide } from './greedy.js';

/** Rollouts per decision of `search` (spec `search:N` sets another). */
export const SEARCH_ROLLOUTS = 64;
/** The most discards kept for rollouts (greedy's best first). */
const MAX_DISCARDS = 3;
/**
 * How `search` draws its worlds: a seat that declared ready waits (a uniform hand almost never
 * does), the others about as near ready as greedy's after as many discards, and each hand one that
 * explains what its seat let go (docs/bots.md "Why search does not beat greedy": worth +0.05 a
 * seat-hand over uniform worlds in bench/search-diag.ts).
 */
export const SEARCH_WORLDS: SampleOptions = { readyWaits: true, nearReady: true, discards: true };
/** How many standard errors the challenger must beat greedy's choice by, on worlds of its own (one-sided 5%). */
const MARGIN_SE = 1.65;
/** Candidate actions at most (discards, their ready twins, kongs; or pass and the claims). */
const MAX_CANDIDATES = 16;

/** Variants of the search, for benches and diagnostics (bench/search-diag.ts); the built-in uses the defaults. */
export interface SearchOptions {
  /** How worlds are drawn from the view (default `SEARCH_WORLDS`). */
  readonly worlds?: SampleOptions;
  /** Standard errors by which the challenger must beat greedy's choice (default 1.65; `Infinity`: never). */
  readonly margin?: number;
  /** Draw worlds another way, e.g. a diagnostic's oracle that reads the real table (default `sampleWorld` with `worlds`). */
  readonly sampler?: (view: View, rng: Rng, into: Table) => void;
}

/** The search bot with `rollouts` rollouts per decision. */
export function searchBot(rollouts: number = SEARCH_ROLLOUTS, options: SearchOptions = {}): BotFactory {
  if (!Number.isInteger(rollouts) || rollouts < 1) throw new RangeError(`search: rollouts per decision must be a whole number ≥ 1, got ${rollouts}`);
  const worlds = options.worlds ?? SEARCH_WORLDS;
  const sampler = options.sampler ?? ((view: View, rng: Rng, into: Table) => void sampleWorld(view, rng, into, worlds));
  const margin = options.margin ?? MARGIN_SE;
  return (seat, rng) => {
    const s = new Search(seat, rng, rollouts, sampler, margin);
    return { decide: (view, legal) => s.decide(view, legal) };
  };
}

/** One seat's search: its scratch tables and lists, reused for every decision of the hand. */
class Search {
  private readonly world = new Table();
  private readonly work = new Table();
  private readonly cands: Action[] = [];
  /** Per candidate, the sum of its rollouts' points less candidate 0's in the same worlds. */
  private readonly sums = new Float64Array(MAX_CANDIDATES);
  private readonly ranked = new Int32Array(34);
  private readonly keys = new Float64Array(34);

  constructor(
    readonly seat: number,
    private readonly rng: Rng,
    private readonly rollouts: number,
    private readonly sampler: (view: View, rng: Rng, into: Table) => void,
    private readonly margin: number,
  ) {}

  decide(view: View, legal: readonly Action[]): Action {
    if (legal.length === 1) return legal[0]!;
    const win = findAction(legal, ActionKind.WIN);
    if (win >= 0) return win;
    const e = sharedHandEval().load(view);
    // Greedy's own choice goes first: the others must beat it by more than the noise to be taken.
    const mine = greedyDecide(e, view, legal);
    e.load(view);
    const n = view.phase === 'turn' ? this.turnCandidates(e, view, legal, mine) : this.claimCandidates(legal, mine);
    if (n === 1) return this.cands[0]!;
    return this.best(view, n);
  }

  /** Candidates of a turn: greedy's best discards (with their ready twins) and every kong; returns how many. */
  private turnCandidates(e: HandEval, view: View, legal: readonly Action[], mine: Action): number {
    const c = this.cands;
    c.length = 0;
    c.push(mine);
    if (view.isReady(view.seat)) {
      for (let i = 0; i < legal.length; i++) if (legal[i] !== mine) c.push(legal[i]!);
      return c.length;
    }
    // Discards ranked as greedy ranks them: shanten after, then improving tiles.
    const ranked = this.ranked;
    const keys = this.keys;
    let m = 0;
    for (let i = 0; i < legal.length; i++) {
      const a = legal[i]!;
      if (actionKind(a) !== ActionKind.DISCARD) continue;
      const t = actionTile(a);
      const s = e.hand.shantenAfterDiscard(t);
      const key = s * 1e4 - e.ukeire(t, s);
      let j = m++;
      while (j > 0 && keys[j - 1]! > key) {
        keys[j] = keys[j - 1]!;
        ranked[j] = ranked[j - 1]!;
        j--;
      }
      keys[j] = key;
      ranked[j] = t;
    }
    const minShanten = Math.floor((keys[0]! + 5e3) / 1e4);
    for (let i = 0; i < m && i < MAX_DISCARDS; i++) {
      const t = ranked[i]!;
      if (Math.floor((keys[i]! + 5e3) / 1e4) > minShanten + 1) break;
      const ready = findAction(legal, ActionKind.READY, t);
      if (ready >= 0 && ready !== mine) c.push(ready);
      const d = findAction(legal, ActionKind.DISCARD, t);
      if (d !== mine) c.push(d);
    }
    for (let i = 0; i < legal.length; i++) {
      const k = actionKind(legal[i]!);
      if ((k === ActionKind.CONCEALED_KONG || k === ActionKind.ADDED_KONG) && legal[i] !== mine && c.length < MAX_CANDIDATES) c.push(legal[i]!);
    }
    return c.length;
  }

  /** Candidates of a claim or rob window: pass and every claim; returns how many. */
  private claimCandidates(legal: readonly Action[], mine: Action): number {
    const c = this.cands;
    c.length = 0;
    c.push(mine);
    for (let i = 0; i < legal.length && c.length < MAX_CANDIDATES; i++) if (legal[i] !== mine) c.push(legal[i]!);
    return c.length;
  }

  /**
   * Greedy's choice (candidate 0) unless another candidate is better, in two stages over worlds
   * sampled from the view, every candidate played out in the same worlds (common random numbers):
   * a quarter of the budget picks the challenger (the best mean points against greedy's choice);
   * the rest plays the two again in fresh worlds, and the challenger is taken only if it wins
   * there by more than `MARGIN_SE` standard errors. Judging it on worlds it was not picked on
   * keeps the winner's curse out: the best of several noisy means looks better than it is, and
   * a search that follows it deviates from greedy at random (measured: 0.27 points a seat-hand
   * worse than greedy, docs/bots.md#the-search-bot).
   */
  private best(view: View, n: number): Action {
    const picking = Math.max(1, Math.floor(this.rollouts / 4 / n));
    const sums = this.sums;
    sums.fill(0, 0, n);
    for (let w = 0; w < picking; w++) {
      this.sample(view);
      const base = this.rollout(0);
      for (let i = 1; i < n; i++) sums[i]! += this.rollout(i) - base;
    }
    let challenger = 1;
    for (let i = 2; i < n; i++) if (sums[i]! > sums[challenger]!) challenger = i;
    const judging = Math.max(2, Math.floor((this.rollouts - picking * n) / 2));
    let sum = 0;
    let squares = 0;
    for (let w = 0; w < judging; w++) {
      this.sample(view);
      const d = this.rollout(challenger) - this.rollout(0);
      sum += d;
      squares += d * d;
    }
    const mean = sum / judging;
    const se = Math.sqrt(Math.max(0, squares / judging - mean * mean) / (judging - 1));
    return this.cands[mean > 0 && mean > this.margin * se ? challenger : 0]!;
  }

  /** Draw the next world from the view. */
  private sample(view: View): void {
    this.sampler(view, this.rng, this.world);
  }

  /** Candidate `i` played out in the current world: the seat's points. */
  private rollout(i: number): number {
    this.work.copyFrom(this.world);
    this.work.step(this.seat, this.cands[i]!);
    return playOut(this.work, this.seat);
  }
}

/** Scratch of `playOut`: a legal list and the seats of a window. */
const playLegal: Action[] = [];
const playSeats = new Int8Array(4);

/**
 * A rollout: play `t` to the end of the hand with greedy in every seat; `seat`'s points. Reuses
 * its lists (no allocation but the engine's own result record).
 */
export function playOut(t: Table, seat: number): number {
  const e = sharedHandEval();
  const legal = playLegal;
  const seats = playSeats;
  while (!t.isOver()) {
    const k = t.pendingCount();
    for (let i = 0; i < k; i++) seats[i] = t.pendingSeat(i);
    for (let i = 0; i < k; i++) {
      const s = seats[i]!;
      t.legalInto(s, legal);
      t.step(s, legal.length === 1 ? legal[0]! : greedyDecide(e, t.view(s), legal));
    }
  }
  return t.result().deltas[seat]!;
}

/** The search bot at the default budget. */
export const search: BotFactory = searchBot();

export default search;
