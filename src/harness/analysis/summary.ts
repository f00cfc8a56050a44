/**
 * The summary of a run, computed from its files alone (so a resumed run, a rescored run and
 * `tw16 report` all agree), written as summary.json (format SUMMARY_FORMAT, documented field
 * by field in results/README.md): per rule arm and bot — seat-hands, points per seat-hand raw
 * and luck-adjusted, win, self-draw and deal-in rates, tai per win — with 95% intervals
 * clustered by deal; with rotate or duplicate seating, paired per-deal differences between
 * bots (raw and luck-adjusted, each with a t-test and Holm's adjustment over the arm's pairs)
 * and how much the seating narrowed the interval against independent hands; the table's
 * outcome rates and pattern frequencies per arm; a league's ratings (league.ts); a stop rule's
 * looks and verdict (sequential.ts). Every estimate names its estimator (stats.ts ESTIMATORS).
 *
 * Luck-adjusted estimates come from the run itself: the luck's sums (made as the run plays, or in a
 * first pass over hands.arrow) fit the luck weights by cross-fitting (luckfit.ts) and give each bot's
 * and pair's control-variate estimate (cvsums.ts, cv.ts); the main pass reads the rows without their
 * features. A league's ratings take each deal's luck, so there the main pass turns every seat-hand's
 * features into its luck (`byRows`: the same for any run, the reference the tests compare with).
 *
 * Rows that replay a seating already played on the same deal (the same bots in the same seats:
 * every byte of the hand repeats) are counted once.
 */
import type { RecordBatch } from 'apache-arrow';
import { LUCK_F, LUCK_FEATURES } from '../../engine/index.js';
import { PATTERN_IDS, type PatternId } from '../../rules/types.js';
import type { Batch, ColumnSpec, Utf8Column } from '../io/columns.js';
import { readMetadata, scanBatches, utf8Strings, utf8Values } from '../io/read.js';
import { CvMean, CvRatio } from './cv.js';
import { CvSums, type CvTransfer } from './cvsums.js';
import { LeagueAcc, type LeagueSummary, type PairTest } from './league.js';
import { LUCK_FOLDS, LUCK_REGRESSORS, luckFold, LuckModel, luckRegressors, modelKey, type FoldTransfer } from './luckfit.js';
import { decide, STOP_METHOD, stopDesign, type Look, type Verdict } from './sequential.js';
import { stopLooks } from '../experiment/experiment.js';
import { FIRST_LUCK_COLUMN, LUCK_W } from '../results/records.js';
import { ClusterStat, doubled, eventFloor, ESTIMATORS, holm, MeanStat, noEstimate, SparseClusters, t975, tTestP, withinRange, type Estimate, type Floor } from './stats.js';

/** summary.json's format tag; bumped whenever a field changes meaning or goes. */
export const SUMMARY_FORMAT = 'tw16-summary-2';

/** Per-bot metrics within one rule arm. */
export interface BotSummary {
  readonly bot: string;
  /** Distinct seat-hands played (one bot in one seat for one hand; replays of a seating counted once). */
  readonly hands: number;
  /** Points won per seat-hand (cluster-ratio-t). */
  readonly pointsPerHand: Estimate;
  /** Points less their luck per seat-hand (cluster-ratio-cv-t, or the raw estimate where that is not narrower); null without luck records. */
  readonly pointsPerHandAdjusted: Estimate | null;
  /** Wins per seat-hand (wilson-deff). */
  readonly winRate: Estimate;
  /** Self-drawn wins / wins (wilson-deff over the deals it won in). */
  readonly selfDrawShare: Estimate;
  /** Times it paid as discarder / seat-hands (wilson-deff). */
  readonly dealInRate: Estimate;
  /** Tai per win (cluster-ratio-t with the floor). */
  readonly taiPerWin: Estimate;
}

/** A paired comparison of two bots over the same deals: `diff` is the mean over deals of (a − b) points per seat-hand (paired-deal-t, deals − 1 df), Holm over the arm's pairs. */
export interface PairedDifference extends PairTest {
  readonly deals: number;
  /**
   * Half-width of the 95% interval the same distinct hands would give if each were played on a
   * wall of its own (per-hand differences of the two bots' mean points, treated as independent).
   */
  readonly independentHalfWidth: number;
  /** independentHalfWidth / the paired half-width, with its interval (sd-ratio-log-t): what the seating design bought. */
  readonly narrowing: Estimate;
}

/** One pattern's frequency in an arm. */
export interface PatternFrequency {
  readonly pattern: PatternId;
  /** Wins holding the pattern. */
  readonly wins: number;
  /** Per 1,000 wins (wilson-deff, clustered by deal). */
  readonly per1000Wins: Estimate;
  /** Per 1,000 hands (wilson-deff, clustered by deal). */
  readonly per1000Hands: Estimate;
}

/** Everything about one rule arm. */
export interface ArmSummary {
  readonly arm: number;
  readonly profile: string;
  /** Distinct hands (replays of a seating counted once). */
  readonly hands: number;
  readonly deals: number;
  /** Rows that replayed a seating already played on their deal, left out of every statistic. */
  readonly replays: number;
  /** Share of hands by outcome (wilson-deff over hands, clustered by deal); `draw` is the table's draw rate. */
  readonly outcomes: Readonly<Record<string, Estimate>>;
  readonly bots: readonly BotSummary[];
  readonly paired: readonly PairedDifference[];
  /** What the design cannot support, said where the numbers are (e.g. rotate with three or more bots). */
  readonly warnings: readonly string[];
  readonly patterns: readonly PatternFrequency[];
}

/** The stop rule's record (experiment `stop`; sequential.ts). */
export interface StopSummary {
  readonly compare: readonly [string, string];
  readonly delta: number;
  readonly alpha: number;
  readonly beta: number;
  readonly method: string;
  /** a_better, b_better, within_delta, or undecided (the most deals were played). */
  readonly verdict: Exclude<Verdict, 'continue'>;
  /** Deals played (the look that decided). */
  readonly deals: number;
  /** Deals the run could have played. */
  readonly maxDeals: number;
  /** The luck-adjusted (raw without luck) paired difference a − b at the last look, with its repeated confidence interval. */
  readonly estimate: Estimate;
  /** Every look made, in order. */
  readonly looks: readonly Look[];
}

export interface Summary {
  /** SUMMARY_FORMAT. */
  readonly format: string;
  readonly experiment: unknown;
  readonly version: string;
  /** Distinct hands over all arms. */
  readonly hands: number;
  /** Win rows over all arms (replays left out). */
  readonly wins: number;
  /** Luck-adjusted estimates were made (hands.arrow has the `luck_<seat>_<feature>` columns and the run had luck accounting on). */
  readonly luck: boolean;
  /** Every estimator named in this file, with what it computes. */
  readonly estimators: Readonly<Record<string, string>>;
  readonly arms: readonly ArmSummary[];
  /** The stop rule's looks and verdict (experiment `stop`), else absent. */
  readonly stop?: StopSummary;
  /** A league's ratings (5–16 bots), else absent. */
  readonly league?: LeagueSummary;
}

const SEATS = [0, 1, 2, 3] as const;
/**
 * Every outcome a hand can have (engine `Outcome`), reported in this order; then `void`, which
 * only a rescore writes (a hand whose every win no longer qualifies), reported only when present.
 */
const OUTCOMES = ['win', 'self_draw', 'draw', 'instant', 'false_win', 'void'] as const;

/** The warning for rotate seating with three or more different bots. */
export const ROTATE_WARNING =
  'rotate seats every bot behind the same neighbour in every play, so a paired difference here carries neighbour-order effects as well as skill (with four bots no 12-seating design balances them): use seating "duplicate" for paired tests';

interface BotAcc {
  points: ClusterStat;
  adjusted: CvRatio;
  wins: ClusterStat;
  selfDraws: ClusterStat;
  dealIns: ClusterStat;
  tai: ClusterStat;
  /** Σ of squared points over its seat-hands, and deals where some seat-hand of it had points ≠ 0 (eventFloor). */
  ss: number;
  eventDeals: number;
  /** Σ of squared tai over its wins. */
  taiSs: number;
}

interface DealAcc {
  /** The deal these sums are of (they are zeroed when a row of another deal first reaches them). */
  deal: number;
  /** The luck model's key of the bot in its arm (`arm \u0000 name`), made once. */
  readonly key: string;
  y: number;
  n: number;
  wins: number;
  selfDraws: number;
  dealIns: number;
  tai: number;
  /** Some seat-hand had points ≠ 0. */
  event: boolean;
  /** Σ of its seat-hands' luck, in LUCK_FOLDS versions (luckfit.ts `controls`). */
  readonly l: Float64Array;
}

/** A pair's accumulators over the deals of an arm. */
interface PairAcc {
  readonly a: string;
  readonly b: string;
  readonly raw: MeanStat;
  /** Made deal by deal with the fitted model's controls (ArmOptions.luck), or from the luck sums after the pass (`adjustFromSums`). */
  adj: CvMean;
  /** Per-hand differences over all distinct hands (what independent walls would have measured). */
  readonly hands: MeanStat;
  /** Σ of squared per-deal differences, and deals where it was not 0 (eventFloor). */
  ss: number;
  eventDeals: number;
  /** Seat-hands of a and of b. */
  na: number;
  nb: number;
  /** Pass 2: Σ over deals of z_i² for the narrowing's delta method, and the current deal's sums. */
  z2: number;
  dealSS: number;
  /** Pass 2: the first pass's means of the pair (from `ArmOptions.pass2`, set when the pair is made); undefined in pass 1. */
  readonly means: PairMeans | undefined;
  /** Its place among the arm's pairs, in the order they were made (NarrowingLog). */
  readonly index: number;
}

/** Entries a NarrowingLog holds at most: 4M (48 MB; npm start's 480,000 hands of four bots take 3M). Tests lower it to see the file read again. */
export const narrowingLog = { max: 1 << 22 };

/**
 * Pass 2's inputs, kept while pass 1 reads them, so that pass 2 need not read the file again:
 * every per-hand difference of a pair and every per-deal difference (`ArmAcc.row`, `closeDeal`),
 * with its pair, in the order pass 1 met them, which is the order pass 2 would meet them (the
 * same rows, the same line-ups, the same pairs). `z2` then takes them in that order with the
 * arithmetic of pass 2 (`ArmAcc` with `ArmOptions.pass2`), so it gives the same numbers bit for
 * bit. A run too large for the log (`narrowingLog.max` entries, 12 bytes each) drops it, and pass 2
 * reads the file as before.
 */
class NarrowingLog {
  private codes = new Int32Array(1024);
  private values = new Float64Array(1024);
  private n = 0;
  /** Dropped: the run had more than `narrowingLog.max` entries. */
  dropped = false;

  /** A hand's difference `e` of pair `pair` (`deal`: false), or a deal's (`deal`: true). */
  push(pair: number, deal: boolean, v: number): void {
    if (this.dropped) return;
    if (this.n === this.codes.length) {
      if (this.n >= narrowingLog.max) {
        this.dropped = true;
        this.codes = new Int32Array(0);
        this.values = new Float64Array(0);
        return;
      }
      this.codes = doubled(this.codes);
      this.values = doubled(this.values);
    }
    this.codes[this.n] = deal ? ~pair : pair;
    this.values[this.n++] = v;
  }

  /** Pass 2's Σz² of each pair (by index) about `means` (by index), as ArmAcc's pass 2 sums it. */
  z2(means: readonly PairMeans[]): Float64Array {
    const z2 = new Float64Array(means.length);
    const dealSS = new Float64Array(means.length);
    for (let t = 0; t < this.n; t++) {
      const code = this.codes[t]!;
      const v = this.values[t]!;
      if (code >= 0) {
        dealSS[code]! += handDeviation(v, means[code]!);
      } else {
        const i = ~code;
        const z = dealZ(dealSS[i]!, v, means[i]!);
        z2[i]! += z * z;
        dealSS[i] = 0;
      }
    }
    return z2;
  }
}

/** A pair's means and sums of squares from the first pass, about which pass 2 takes deviations. */
interface PairMeans {
  readonly hand: number;
  readonly deal: number;
  readonly ssHand: number;
  readonly ssDeal: number;
}

/** Pass 2: a hand's difference `e`'s squared deviation from pass 1's per-hand mean (summed over its deal). */
function handDeviation(e: number, m: PairMeans): number {
  return (e - m.hand) ** 2;
}

/** Pass 2: a deal's z of the narrowing's delta method, from its hands' squared deviations and its difference `d`. */
function dealZ(dealSS: number, d: number, m: PairMeans): number {
  return dealSS / m.ssHand - (d - m.deal) ** 2 / m.ssDeal;
}

/** A pair of a deal's bots: both bots' sums over the deal and the pair's accumulators. */
interface DealPair {
  readonly a: DealAcc;
  readonly c: DealAcc;
  readonly p: PairAcc;
}


/** A seating's bots: index of each seat's bot among the distinct names, and the pairs it holds. */
interface LineUp {
  readonly bots: readonly string[];
  readonly key: string;
  readonly seatIndex: readonly number[];
  readonly count: readonly number[];
  readonly sum: Float64Array;
  readonly pairs: readonly { readonly i: number; readonly j: number; readonly acc: PairAcc }[];
}

/** Deals of an arm in file order with their distinct hands: for the per-1,000-hands clusters. */
class DealList {
  deals = new Float64Array(64);
  hands = new Float64Array(64);
  n = 0;
  push(deal: number, hands: number): void {
    if (this.n === this.deals.length) {
      this.deals = doubled(this.deals);
      this.hands = doubled(this.hands);
    }
    this.deals[this.n] = deal;
    this.hands[this.n++] = hands;
  }
}

/** One distinct row (a replayed seating is never passed on), as the passes read it. */
interface Row {
  deal: number;
  seating: number;
  hand: number;
  readonly bots: string[];
  outcome: string;
  winners: number;
  discarder: number;
  readonly deltas: number[];
  readonly tai: number[];
  /** The hand's luck features (4 × LUCK_F), or null without luck. */
  features: Float64Array | null;
}

/** What each pass does with an arm's rows: `row` for each distinct one, `replay` for the others. */
interface Pass {
  row(r: Row): void;
  replay(r: Row): void;
  finish(): void;
}

/**
 * Drops rows that replay a seating already played on their deal (the same bots in the same seats,
 * the same hand of the match), arm by arm. `replays` false: the design plays one seating a deal
 * (fixed seating), so no row can replay another and every row passes unlooked-at.
 */
class Distinct {
  private current = -1;
  private readonly seen = new Set<string>();
  constructor(
    private readonly pass: Pass,
    private readonly replays = true,
  ) {}
  row(r: Row): void {
    if (!this.replays) return this.pass.row(r);
    if (r.deal !== this.current) {
      this.current = r.deal;
      this.seen.clear();
    }
    const key = `${r.bots[0]}\u0000${r.bots[1]}\u0000${r.bots[2]}\u0000${r.bots[3]}#${r.hand}`;
    if (this.seen.has(key)) return this.pass.replay(r);
    this.seen.add(key);
    this.pass.row(r);
  }
  finish(): void {
    this.pass.finish();
  }
}

/** Whether rows of a deal can replay a seating of it: not with fixed seating, one seating a deal (a league is never fixed). */
export function seatingsReplay(seating: string | undefined): boolean {
  return (seating ?? 'fixed') !== 'fixed';
}

/**
 * Pass 1 (luck on): every distinct seat-hand into the luck model of its arm and bot (Distinct has
 * left the replays out) and, with `cv`, each deal's per-bot sums (points, seat-hands, regressors)
 * into the adjusted estimates' sums (cvsums.ts).
 */
class FitPass implements Pass {
  private readonly x = new Float64Array(LUCK_REGRESSORS);
  /** The model's key of each bot (made once, not per seat-hand). */
  private readonly keys = new Map<string, string>();
  /** The deal in progress (−1: none), its bots in order of appearance and their sums. */
  private deal = -1;
  private names: string[] = [];
  private y: number[] = [];
  private n: number[] = [];
  private X = new Float64Array(4 * LUCK_REGRESSORS);
  constructor(
    readonly arm: number,
    private readonly model: (deal: number) => LuckModel,
    private readonly cv?: { readonly sums: CvSums; readonly seg: (deal: number) => number },
  ) {}
  row(r: Row): void {
    const F = r.features!;
    const fold = luckFold(r.deal);
    const model = this.model(r.deal);
    const D = LUCK_REGRESSORS;
    if (this.cv && r.deal !== this.deal) {
      this.finish();
      this.deal = r.deal;
    }
    for (const s of SEATS) {
      const name = r.bots[s]!;
      let key = this.keys.get(name);
      if (key === undefined) this.keys.set(name, (key = modelKey(this.arm, name)));
      luckRegressors(F, s, this.x);
      model.add(key, fold, this.x, r.deltas[s]!, r.deal);
      if (this.cv) {
        let b = this.names.indexOf(name);
        if (b < 0) {
          b = this.names.push(name) - 1;
          this.y.push(0);
          this.n.push(0);
          if (this.X.length < D * this.names.length) this.X = doubled(this.X);
          this.X.fill(0, b * D, (b + 1) * D);
        }
        this.y[b]! += r.deltas[s]!;
        this.n[b]!++;
        const X = this.X;
        const x = this.x;
        for (let i = 0; i < D; i++) X[b * D + i]! += x[i]!;
      }
    }
  }
  replay(): void {}
  /** Close the deal in progress: its bots' sums, sorted by name, into the cv sums. */
  finish(): void {
    if (!this.cv || this.deal < 0) return;
    const D = LUCK_REGRESSORS;
    const order = this.names.map((_, b) => b).sort((a, b) => (this.names[a]! < this.names[b]! ? -1 : this.names[a]! > this.names[b]! ? 1 : 0));
    const X = new Float64Array(D * order.length);
    order.forEach((b, i) => X.set(this.X.subarray(b * D, (b + 1) * D), i * D));
    this.cv.sums.deal(
      this.arm,
      this.cv.seg(this.deal),
      luckFold(this.deal),
      order.map((b) => this.names[b]!),
      order.map((b) => this.y[b]!),
      order.map((b) => this.n[b]!),
      X,
    );
    this.deal = -1;
    this.names = [];
    this.y = [];
    this.n = [];
  }
}

/** Options of the main passes over an arm. */
interface ArmOptions {
  /** The fitted luck model, or undefined: no luck. */
  readonly luck?: LuckModel;
  /** A league: per-deal tables for the ratings. */
  readonly league?: LeagueAcc;
  /** Pass 3 (narrowing): the means the squared deviations are taken about, by pair key. */
  readonly pass2?: ReadonlyMap<string, PairMeans>;
  /** Skip the per-pair work (a league reports ratings, not paired tables). */
  readonly noPairs?: boolean;
  /** Keep pass 2's inputs (NarrowingLog) while reading pass 1 (never with `pass2` or `noPairs`). */
  readonly narrowing?: boolean;
}

class ArmAcc implements Pass {
  hands = 0;
  deals = 0;
  replays = 0;
  readonly outcomes = new Map<string, ClusterStat>();
  readonly bots = new Map<string, BotAcc>();
  readonly pairs = new Map<string, PairAcc>();
  readonly dealList = new DealList();
  /** Replayed plays (`deal/seating/hand`) to leave out of the wins pass. */
  readonly replayed = new Set<string>();
  /** Tai of every win in the arm: the pooled sd behind tai/win's floor. */
  readonly taiAll = new MeanStat();
  /** Mean square of the non-zero points of a seat-hand in the arm, and of the non-zero tai of a win (eventFloor's typical size). */
  pointsSq = new MeanStat();
  taiSq = new MeanStat();
  private readonly lineUps = new Map<string, LineUp>();
  /** The line-up of the row before (most rows repeat it). */
  private lastLineUp: LineUp | null = null;
  private current = -1;
  /** Per bot, its sums over the current deal (kept from deal to deal, zeroed on the deal's first row of it). */
  private readonly deal = new Map<string, DealAcc>();
  /** The bots of the current deal in the order they first appear in it, and that list sorted with its pairs (kept while the next deal has the same bots). */
  private dealNames: string[] = [];
  /** The deal bots `pairList` was made for (`pairsOf`). */
  private pairNames: readonly string[] = [];
  private pairList: readonly DealPair[] = [];
  private readonly dealOutcomes = new Map<string, number>();
  private dealHands = 0;
  /** Pass 2's inputs (pass 1 with `ArmOptions.narrowing`), or null. */
  readonly log: NarrowingLog | null;
  private readonly x = new Float64Array(LUCK_REGRESSORS);
  private readonly ctl = new Float64Array(LUCK_FOLDS);
  private readonly v = new Float64Array(LUCK_FOLDS);

  constructor(
    readonly arm: number,
    readonly profile: string,
    readonly opts: ArmOptions = {},
  ) {
    this.log = opts.narrowing ? new NarrowingLog() : null;
  }

  replay(r: Row): void {
    if (r.deal !== this.current) this.closeDeal(r.deal);
    this.replays++;
    this.replayed.add(`${r.deal}/${r.seating}/${r.hand}`);
  }

  row(r: Row): void {
    if (r.deal !== this.current) this.closeDeal(r.deal);
    const { bots, deltas, outcome, winners, discarder, tai } = r;
    const pass2 = this.opts.pass2;
    this.hands++;
    this.dealHands++;
    this.dealOutcomes.set(outcome, (this.dealOutcomes.get(outcome) ?? 0) + 1);
    const lu = this.lineUp(bots);
    if (lu.pairs.length > 0) {
      const sum = lu.sum;
      sum.fill(0);
      for (const s of SEATS) sum[lu.seatIndex[s]!]! += deltas[s]!;
      for (const p of lu.pairs) {
        const e = sum[p.i]! / lu.count[p.i]! - sum[p.j]! / lu.count[p.j]!;
        const m = p.acc.means;
        if (m) p.acc.dealSS += handDeviation(e, m);
        else {
          p.acc.hands.add(e);
          this.log?.push(p.acc.index, false, e);
        }
      }
    }
    const model = this.opts.luck;
    const fold = luckFold(r.deal);
    for (const s of SEATS) {
      const name = bots[s]!;
      let d = this.deal.get(name);
      if (!d) this.deal.set(name, (d = { deal: -1, key: modelKey(this.arm, name), y: 0, n: 0, wins: 0, selfDraws: 0, dealIns: 0, tai: 0, event: false, l: new Float64Array(LUCK_FOLDS) }));
      if (d.deal !== r.deal) {
        d.deal = r.deal;
        d.y = d.n = d.wins = d.selfDraws = d.dealIns = d.tai = 0;
        d.event = false;
        d.l.fill(0);
        this.dealNames.push(name);
      }
      const won = (winners >> s) & 1;
      const y = deltas[s]!;
      d.y += y;
      d.n++;
      d.wins += won;
      d.selfDraws += won && outcome === 'self_draw' ? 1 : 0;
      d.dealIns += discarder === s ? 1 : 0;
      d.tai += won ? tai[s]! : 0;
      if (y !== 0) d.event = true;
      if (!pass2) {
        const b = this.botAcc(name);
        b.ss += y * y;
        if (y !== 0) this.pointsSq.add(y * y);
        if (won) {
          this.taiAll.add(tai[s]!);
          b.taiSs += tai[s]! * tai[s]!;
          if (tai[s] !== 0) this.taiSq.add(tai[s]! * tai[s]!);
        }
        if (model && r.features) {
          luckRegressors(r.features, s, this.x);
          model.controls(d.key, fold, this.x, this.ctl);
          for (let k = 0; k < LUCK_FOLDS; k++) d.l[k]! += this.ctl[k]!;
        }
      }
    }
  }

  finish(): void {
    this.closeDeal(-1);
  }

  /** The line-up of a row: the last row's, or made on first sight. */
  private lineUp(bots: readonly string[]): LineUp {
    const last = this.lastLineUp;
    if (last && last.bots[0] === bots[0] && last.bots[1] === bots[1] && last.bots[2] === bots[2] && last.bots[3] === bots[3]) return last;
    this.lastLineUp = this.lineUpOf(bots);
    return this.lastLineUp;
  }

  private lineUpOf(bots: readonly string[]): LineUp {
    const key = `${bots[0]}\u0000${bots[1]}\u0000${bots[2]}\u0000${bots[3]}`;
    let lu = this.lineUps.get(key);
    if (lu) return lu;
    const names = [...new Set(bots)].sort();
    const seatIndex = bots.map((b) => names.indexOf(b));
    const count = names.map((n) => bots.filter((b) => b === n).length);
    const pairs: LineUp['pairs'][number][] = [];
    if (!this.opts.noPairs) for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) pairs.push({ i, j, acc: this.pairAcc(names[i]!, names[j]!) });
    lu = { bots: [...bots], key, seatIndex, count, sum: new Float64Array(names.length), pairs };
    this.lineUps.set(key, lu);
    return lu;
  }

  private pairAcc(a: string, b: string): PairAcc {
    const key = `${a}\u0000${b}`;
    let p = this.pairs.get(key);
    if (!p) this.pairs.set(key, (p = { a, b, raw: new MeanStat(), adj: new CvMean(), hands: new MeanStat(), ss: 0, eventDeals: 0, na: 0, nb: 0, z2: 0, dealSS: 0, means: this.opts.pass2 ? this.opts.pass2.get(key)! : undefined, index: this.pairs.size }));
    return p;
  }

  private botAcc(name: string): BotAcc {
    let b = this.bots.get(name);
    if (!b) {
      b = { points: new ClusterStat(), adjusted: new CvRatio(), wins: new ClusterStat(), selfDraws: new ClusterStat(), dealIns: new ClusterStat(), tai: new ClusterStat(), ss: 0, eventDeals: 0, taiSs: 0 };
      this.bots.set(name, b);
    }
    return b;
  }

  private closeDeal(next: number): void {
    const pass2 = this.opts.pass2;
    const names = this.dealNames;
    if (this.current >= 0 && this.dealHands > 0) {
      const fold = luckFold(this.current);
      this.deals++;
      this.dealList.push(this.current, this.dealHands);
      if (!pass2) {
        for (const name of names) {
          const d = this.deal.get(name)!;
          const b = this.botAcc(name);
          b.points.add(d.y, d.n);
          if (this.opts.luck) b.adjusted.add(fold, d.y, d.n, d.l);
          b.wins.add(d.wins, d.n);
          b.selfDraws.add(d.selfDraws, d.wins);
          b.dealIns.add(d.dealIns, d.n);
          b.tai.add(d.tai, d.wins);
          if (d.event) b.eventDeals++;
        }
        if (this.opts.league) {
          const accs = names.map((n) => this.deal.get(n)!);
          this.opts.league.deal(
            fold,
            names,
            accs.map((d) => d.y),
            accs.map((d) => d.n),
            accs.map((d) => d.l),
          );
        }
      }
      const v = this.v;
      for (const { a, c, p } of this.pairsOf(names)) {
        const dRaw = a.y / a.n - c.y / c.n;
        const m = p.means;
        if (m) {
          // The narrowing's delta method: this deal's share of each sum of squares.
          const z = dealZ(p.dealSS, dRaw, m);
          p.z2 += z * z;
        } else {
          p.raw.add(dRaw);
          this.log?.push(p.index, true, dRaw);
          if (this.opts.luck) {
            for (let k = 0; k < LUCK_FOLDS; k++) v[k] = a.l[k]! / a.n - c.l[k]! / c.n;
            p.adj.add(fold, dRaw, v);
          }
          p.ss += dRaw * dRaw;
          if (dRaw !== 0) p.eventDeals++;
          p.na += a.n;
          p.nb += c.n;
        }
        p.dealSS = 0;
      }
      if (!pass2) {
        for (const o of OUTCOMES) {
          let r = this.outcomes.get(o);
          if (!r) this.outcomes.set(o, (r = new ClusterStat()));
          r.add(this.dealOutcomes.get(o) ?? 0, this.dealHands);
        }
      }
    }
    this.current = next;
    this.dealNames = [];
    for (const o of this.dealOutcomes.keys()) this.dealOutcomes.set(o, 0);
    this.dealHands = 0;
  }

  /**
   * The pairs of a deal's bots (`names`, in order of appearance), each with both bots' deal sums:
   * over the names sorted, (i, j) for i < j. Kept while the next deal has the same bots in the
   * same order (a deal's bots are those of its seatings).
   */
  private pairsOf(names: readonly string[]): readonly DealPair[] {
    if (this.opts.noPairs) return [];
    const last = this.pairNames;
    if (last.length === names.length && last.every((n, i) => n === names[i])) return this.pairList;
    const sorted = [...names].sort();
    const list: DealPair[] = [];
    for (let i = 0; i < sorted.length; i++) {
      for (let j = i + 1; j < sorted.length; j++) list.push({ a: this.deal.get(sorted[i]!)!, c: this.deal.get(sorted[j]!)!, p: this.pairAcc(sorted[i]!, sorted[j]!) });
    }
    this.pairNames = [...names];
    this.pairList = list;
    return list;
  }
}

/**
 * Per arm, the wins pass: clustered pattern counts per 1,000 wins and per 1,000 hands. A deal costs
 * its patterns that were won, not all of them (SparseClusters): most deals hold a few.
 */
class PatternAcc {
  private readonly wonIn = new SparseClusters(PATTERN_IDS.length);
  private readonly handsIn = new SparseClusters(PATTERN_IDS.length);
  readonly counts = PATTERN_IDS.map(() => 0);
  wins = 0;
  /** Next deal of the list to close. */
  private cursor = 0;
  /** The deal whose wins are being counted (the list's deal at `cursor`), or −1. */
  private deal = -1;
  private dealWins = 0;

  constructor(private readonly list: DealList) {}

  /** One win row of `deal` (deals arrive in the order of the list): row `i` of the pattern columns `cols`. */
  win(deal: number, cols: readonly ArrayLike<number>[], i: number): void {
    if (deal !== this.deal) {
      this.closeDeal();
      this.skipTo(deal);
      this.deal = deal;
    }
    this.wins++;
    this.dealWins++;
    for (let p = 0; p < cols.length; p++) {
      if (cols[p]![i]! > 0) {
        this.counts[p]!++;
        this.wonIn.count(p);
        this.handsIn.count(p);
      }
    }
  }

  /** Close the last deal and the deals after it, which had no wins. */
  finish(): void {
    this.closeDeal();
    this.skipTo(NaN);
  }

  /** Pattern p's wins per win, clustered by deal. */
  perWins(p: number): ClusterStat {
    return this.wonIn.stat(p);
  }

  /** Pattern p's wins per hand, clustered by deal. */
  perHands(p: number): ClusterStat {
    return this.handsIn.stat(p);
  }

  private closeDeal(): void {
    if (this.deal < 0) return;
    this.wonIn.cluster(this.dealWins);
    this.handsIn.cluster(this.list.hands[this.cursor]!);
    this.cursor++;
    this.deal = -1;
    this.dealWins = 0;
  }

  /** Deals before `deal` had no wins: empty clusters (every hand counts in per 1,000 hands). */
  private skipTo(deal: number): void {
    const L = this.list;
    while (this.cursor < L.n && L.deals[this.cursor] !== deal) {
      this.wonIn.cluster(0);
      this.handsIn.cluster(L.hands[this.cursor]!);
      this.cursor++;
    }
  }
}

/** The estimate of a ratio or NaN-filled when no unit was seen. */
function props(c: ClusterStat, per = 1): Estimate {
  return c.proportion(per);
}

/** Where a summary reads hands from: its batches (a file, or a running run's journal), and the first deal left out. */
export interface HandSource {
  readonly batches: () => AsyncIterable<RecordBatch>;
  /** Rows of deals from here on are left out (a stop rule's look); undefined: none. */
  readonly endDeal?: number;
}

/** Whether a hands batch holds the luck feature columns. */
function hasFeatures(rb: RecordBatch): boolean {
  return rb.getChild(FIRST_LUCK_COLUMN) !== null;
}

/** Every row of the hands before `src.endDeal`, in order, to its arm's pass (made by `make` on first sight, behind a Distinct). */
async function readRows(src: HandSource, luck: boolean, replays: boolean, passes: Map<number, Distinct>, make: (arm: number, profile: string) => Pass): Promise<void> {
  const rows = new RowReader(luck, replays, passes, make, src.endDeal ?? Infinity);
  for await (const rb of src.batches()) {
    if (!rows.batch(recordBatchView(rb))) break;
  }
  for (const p of passes.values()) p.finish();
}

/** A batch of hands.arrow's (or wins.arrow's) rows, whichever form it comes in: its row count, number columns and string columns by name. */
interface RowsView {
  readonly rows: number;
  num(name: string): ArrayLike<number>;
  str(name: string): readonly string[];
  /** The rows' luck features as a job keeps them beside its rows (records.ts FeatureRows), read instead of the columns. */
  readonly feats?: Float32Array;
}

function recordBatchView(rb: RecordBatch): RowsView {
  return { rows: rb.numRows, num: (n) => rb.getChild(n)!.toArray() as ArrayLike<number>, str: (n) => utf8Values(rb, n) };
}

/** A batch as a job made it (`specs`: its columns; `feats`: its luck features, JobResult `luckFeatures`). */
function batchView(b: Batch, specs: readonly ColumnSpec[], feats?: Float32Array): RowsView {
  if (feats && feats.length !== b.rows * LUCK_W) throw new Error(`summary: ${feats.length} luck feature values for ${b.rows} rows of ${LUCK_W}`);
  const at = (name: string): number => {
    const i = specs.findIndex((c) => c.name === name);
    if (i < 0) throw new Error(`summary: no column ${name}`);
    return i;
  };
  return {
    rows: b.rows,
    ...(feats ? { feats } : {}),
    num: (n) => b.columns[at(n)] as ArrayLike<number>,
    str: (n) => {
      const u = b.columns[at(n)] as Utf8Column;
      return utf8Strings(u.offsets, u.bytes, 0, b.rows);
    },
  };
}

/** Rows of hands.arrow, batch by batch in file order, to the passes of their arms (each behind a Distinct), up to deal `end`. */
class RowReader {
  private readonly r: Row = { deal: 0, seating: 0, hand: 0, bots: ['', '', '', ''], outcome: '', winners: 0, discarder: 0, deltas: [0, 0, 0, 0], tai: [0, 0, 0, 0], features: null };
  private readonly features = new Float64Array(LUCK_W);
  constructor(
    private readonly luck: boolean,
    private readonly replays: boolean,
    private readonly passes: Map<number, Distinct>,
    private readonly make: (arm: number, profile: string) => Pass,
    private readonly end: number,
  ) {}

  /** One batch; false once the rows reach `end` (rows come in deal order). */
  batch(v: RowsView): boolean {
    const { r, features, passes, end } = this;
    const deal = v.num('deal');
    if (v.rows > 0 && deal[0]! >= end) return false;
    const arm = v.num('arm');
    const seating = v.num('seating');
    const hand = v.num('hand');
    const winners = v.num('winners');
    const discarder = v.num('discarder');
    const profile = v.str('profile');
    const outcome = v.str('outcome');
    const bots = SEATS.map((s) => v.str(`bot_${s}`));
    const deltas = SEATS.map((s) => v.num(`delta_${s}`));
    const tai = SEATS.map((s) => v.num(`tai_${s}`));
    const rowFeats = this.luck ? v.feats : undefined;
    const feat = this.luck && !rowFeats ? SEATS.flatMap((s) => LUCK_FEATURES.map((f) => v.num(`luck_${s}_${f}`))) : null;
    r.features = this.luck ? features : null;
    for (let i = 0; i < v.rows; i++) {
      if (deal[i]! >= end) return false;
      const a = arm[i]!;
      let pass = passes.get(a);
      if (!pass) passes.set(a, (pass = new Distinct(this.make(a, profile[i]!), this.replays)));
      r.deal = deal[i]!;
      r.seating = seating[i]!;
      r.hand = hand[i]!;
      r.outcome = outcome[i]!;
      r.winners = winners[i]!;
      r.discarder = discarder[i]!;
      for (const s of SEATS) {
        r.bots[s] = bots[s]![i]!;
        r.deltas[s] = deltas[s]![i]!;
        r.tai[s] = tai[s]![i]!;
      }
      if (rowFeats) for (let j = 0, o = i * LUCK_W; j < LUCK_W; j++) features[j] = rowFeats[o + j]!;
      else if (feat) for (let j = 0; j < LUCK_W; j++) features[j] = feat[j]![i]!;
      pass.row(r);
    }
    return true;
  }
}

/**
 * The wins pass's rows (wins.arrow) from row `from` on, up to the first of deal `end` or later: each
 * win into its arm's pattern counts, replayed plays left out. Returns the row it stopped at.
 */
function winsBatch(v: RowsView, arms: ReadonlyMap<number, ArmAcc>, patterns: ReadonlyMap<number, PatternAcc>, from = 0, end = Infinity): number {
  const deal = v.num('deal');
  const arm = v.num('arm');
  const seatingCol = v.num('seating');
  const hand = v.num('hand');
  const cols = PATTERN_IDS.map((id) => v.num(id));
  for (let i = from; i < v.rows; i++) {
    if (deal[i]! >= end) return i;
    const acc = arms.get(arm[i]!);
    const pa = patterns.get(arm[i]!);
    if (!acc || !pa) continue;
    if (acc.replays > 0 && acc.replayed.has(`${deal[i]}/${seatingCol[i]}/${hand[i]}`)) continue;
    pa.win(deal[i]!, cols, i);
  }
  return v.rows;
}

/**
 * A run without luck summarized while it plays: its first pass over the hands and its wins pass,
 * fed the batches it writes to hands.arrow and wins.arrow, in order (`summarize(…, { rows: feed })`
 * then reads neither file for them). The same passes over the same rows in the same order as reading
 * the files (test/harness/analysis/summary.test.ts compares the summaries), minus the reading, and
 * done while the workers play instead of after them. A win is counted once pass 1 has closed its
 * deal (PatternAcc walks the deals pass 1 has closed): when hands of a later deal have come.
 */
export class SummaryFeed {
  readonly arms = new Map<number, ArmAcc>();
  readonly leagues = new Map<number, LeagueAcc>();
  readonly patterns = new Map<number, PatternAcc>();
  private readonly passes = new Map<number, Distinct>();
  private readonly rows: RowReader;
  /** Wins not counted yet, in order, each from its row `from`. */
  private readonly pending: { view: RowsView; from: number }[] = [];
  /** The deal of the last hand fed (still open in pass 1). */
  private openDeal = -1;
  private finished = false;
  readonly info: RunInfo;

  /**
   * `meta`: hands.arrow's schema metadata (the run's experiment); `specs`, `winSpecs`: the columns of
   * the batches to come; `luck`: the summary will have luck-adjusted estimates, made from the luck's
   * sums (a LuckFitFeed's, given to `summarize` beside this feed), not from these rows.
   */
  constructor(
    meta: ReadonlyMap<string, string>,
    private readonly specs: readonly ColumnSpec[],
    private readonly winSpecs: readonly ColumnSpec[],
    luck = false,
  ) {
    this.info = infoOf(meta, luck);
    if (this.info.league && this.info.luck) throw new Error("SummaryFeed: a league's luck is read from its rows");
    this.rows = new RowReader(false, seatingsReplay(this.info.seating), this.passes, (a, p) => armAcc(a, p, this.info, undefined, this.arms, this.leagues, true), Infinity);
  }

  /** The next rows of hands.arrow. */
  hands(b: Batch): void {
    if (this.finished) throw new Error('SummaryFeed: rows after the end');
    if (b.rows === 0) return;
    const v = batchView(b, this.specs);
    this.rows.batch(v);
    this.openDeal = v.num('deal')[b.rows - 1]!;
    this.countWins(this.openDeal);
  }

  /** The next rows of wins.arrow. */
  wins(b: Batch): void {
    if (this.finished) throw new Error('SummaryFeed: rows after the end');
    if (b.rows === 0) return;
    this.pending.push({ view: batchView(b, this.winSpecs), from: 0 });
    this.countWins(this.openDeal);
  }

  /** End of the rows: the passes' last deals closed, every win counted. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    for (const p of this.passes.values()) p.finish();
    this.countWins(Infinity);
    for (const pa of this.patterns.values()) pa.finish();
  }

  /** Count the pending wins of deals before `end` (those pass 1 has closed). */
  private countWins(end: number): void {
    for (const acc of this.arms.values()) if (!this.patterns.has(acc.arm)) this.patterns.set(acc.arm, new PatternAcc(acc.dealList));
    while (this.pending.length > 0) {
      const p = this.pending[0]!;
      p.from = winsBatch(p.view, this.arms, this.patterns, p.from, end);
      if (p.from < p.view.rows) return;
      this.pending.shift();
    }
  }
}

/**
 * The luck's pass (pass 1): the fit's sums and the adjusted estimates' (cvsums.ts), fed by a run with
 * the rows it appends to hands.arrow while it plays: `summarize(…, { luck: feed })` then skips that
 * pass over the file (and, beside a SummaryFeed, every read of it). Each batch is read as the file
 * pass reads the file (test/harness/analysis/summary.test.ts compares the summaries). A worker feeds
 * its own job's rows to a feed of its own and sends back the sums (`transfer`), which the run's
 * feed `merge`s: the sums are exact (luckfit.ts ExactSums), so a job's sums merged are the same bits
 * as its rows added here, and the main thread, which waits for its workers most of the time anyway,
 * does none of the luck's per-hand work. The sums are kept per segment of a stop rule's looks, so
 * a look's estimate (`sums(k + 1)`) has exactly the deals before it.
 */
export class LuckFitFeed {
  /** Per segment (the deals before the first of `looks`, then between two looks, …), the fit's sums. */
  private readonly models: LuckModel[] = [];
  /** The adjusted estimates' sums (cvsums.ts), or undefined: not made (a league's rows are read back). */
  readonly cv: CvSums | undefined;
  private readonly passes = new Map<number, Distinct>();
  private readonly reader: RowReader;
  private fitted: LuckSums | undefined;

  /**
   * `specs`: the columns of the batches to come (hands.arrow's; undefined when only `addRows` is
   * used); `replays`: whether rows can replay a seating (`seatingsReplay`); `looks`: a stop rule's
   * looks in deals (experiment.ts `stopLooks`), so that each look's sums are those of the deals
   * before it; `cv`: make the adjusted estimates' sums (every run but a league), with the paired
   * differences' (`'pairs'`: every seating but fixed, whose summary has none) or without (`'bots'`).
   */
  constructor(
    private readonly specs: readonly ColumnSpec[] | undefined,
    replays = true,
    readonly looks: readonly number[] = [],
    cv: 'pairs' | 'bots' | false = 'pairs',
    end = Infinity,
  ) {
    this.cv = cv ? new CvSums(cv === 'pairs') : undefined;
    const seg = (deal: number): number => {
      let k = 0;
      while (k < looks.length && looks[k]! <= deal) k++;
      return k;
    };
    const model = (deal: number): LuckModel => (this.models[seg(deal)] ??= new LuckModel());
    this.reader = new RowReader(true, replays, this.passes, (a) => new FitPass(a, model, this.cv ? { sums: this.cv, seg } : undefined), end);
  }

  /**
   * The next rows of hands.arrow (whole deals: a deal's rows never straddle two calls and a merge),
   * their luck features from `feats` (a job's, JobResult `luckFeatures`) when given, else from the rows' columns.
   */
  add(b: Batch, feats?: Float32Array): void {
    if (!this.specs) throw new Error('LuckFitFeed: no columns to read batches with');
    this.addRows(batchView(b, this.specs, feats));
  }

  /** The next rows, in whatever form (false once they reach the feed's end deal). */
  addRows(v: RowsView): boolean {
    if (this.fitted) throw new Error('LuckFitFeed: rows after the fit');
    return this.reader.batch(v);
  }

  /** End the deals in progress (their sums into the cv sums; rows never straddle calls, so every deal added is whole). */
  private closeDeals(): void {
    for (const p of this.passes.values()) p.finish();
  }

  /** The sums of every row added (what a worker sends back with its job's rows). */
  transfer(): LuckTransfer {
    this.closeDeals();
    const fit: { seg: number; folds: FoldTransfer[] }[] = [];
    this.models.forEach((m, seg) => fit.push({ seg, folds: m.transfer() }));
    return { fit, cv: this.cv?.transfer() ?? [] };
  }

  /** Another feed's sums (`transfer`): a worker's job, whose rows this feed is not given. */
  merge(t: LuckTransfer): void {
    if (this.fitted) throw new Error('LuckFitFeed: sums after the fit');
    for (const { seg, folds } of t.fit) (this.models[seg] ??= new LuckModel()).merge(folds);
    this.cv?.merge(t.cv);
  }

  /**
   * The weights fitted on the deals of the segments before `segs` (all: every row fed, once, after
   * which no more rows are taken), with the cv sums to read the same deals' estimates from.
   */
  sums(segs = Infinity): LuckSums {
    if (segs >= this.models.length && this.fitted) return this.fitted;
    this.closeDeals();
    const model = new LuckModel();
    this.models.forEach((m, seg) => {
      if (seg < segs) model.merge(m.transfer());
    });
    model.fit();
    const out = { model, cv: this.cv, segs };
    if (segs === Infinity) this.fitted = out;
    return out;
  }

  /** The weights, fitted once on every row fed. */
  fit(): LuckModel {
    return this.sums().model;
  }
}

/** A LuckFitFeed's sums as they travel from a worker (structured clone; the arrays transferable). */
export interface LuckTransfer {
  readonly fit: readonly { readonly seg: number; readonly folds: readonly FoldTransfer[] }[];
  readonly cv: readonly CvTransfer[];
}

/** The luck weights fitted on some deals, and the cv sums whose segments before `segs` hold those deals. */
export interface LuckSums {
  readonly model: LuckModel;
  readonly cv: CvSums | undefined;
  readonly segs: number;
}

/** The bots' and pairs' adjusted accumulators of `arms` (made without the luck), from the sums. */
function adjustFromSums(arms: ReadonlyMap<number, ArmAcc>, sums: LuckSums): void {
  const est = sums.cv!.estimators(sums.model, sums.segs);
  for (const acc of arms.values()) {
    const e = est.get(acc.arm);
    for (const [name, b] of acc.bots) b.adjusted = e?.bots.get(name) ?? new CvRatio();
    for (const [key, p] of acc.pairs) p.adj = e?.pairs.get(key) ?? new CvMean();
  }
}

/** What the experiment recorded in the file says about how to summarize it. */
interface RunInfo {
  readonly experiment: { seating?: string; luck?: boolean; bots?: { name: string }[]; stop?: { compare: [string, string]; delta: number; alpha: number; beta: number; first?: number }; deals?: number; unit?: 'hands' | 'matches' } | null;
  readonly seating: string;
  /** Luck-adjusted estimates can be made (luck on and the feature columns present). */
  readonly luck: boolean;
  readonly league?: { readonly design: string; readonly tables: number };
}

async function runInfo(src: HandSource, meta: Map<string, string>): Promise<RunInfo> {
  let luck = infoOf(meta, true).luck;
  if (luck) {
    // Files written before the luck features (or by a run with luck off) have none to fit.
    luck = false;
    for await (const rb of src.batches()) {
      luck = hasFeatures(rb);
      break;
    }
  }
  return infoOf(meta, luck);
}

/** RunInfo from hands.arrow's metadata, `luck` only if the experiment had it on. */
function infoOf(meta: ReadonlyMap<string, string>, luck: boolean): RunInfo {
  const experiment = JSON.parse(meta.get('tw16.experiment') ?? 'null') as RunInfo['experiment'];
  luck &&= experiment?.luck !== false;
  const leagueMeta = meta.get('tw16.league');
  const league = leagueMeta ? (JSON.parse(leagueMeta) as { design: string; tables: unknown[] }) : undefined;
  return { experiment, seating: experiment?.seating ?? 'fixed', luck, ...(league ? { league: { design: league.design, tables: league.tables.length } } : {}) };
}

/** The main passes over the hands: the luck fit (with luck), the accumulators, the narrowing (`narrow`: per arm, each pair's Σz² by pair key). */
/** Pass 1's accumulator of arm `a` (profile `p`), made on its first row: with the luck model, a league's table, the narrowing's log. */
function armAcc(a: number, p: string, info: RunInfo, model: LuckModel | undefined, arms: Map<number, ArmAcc>, leagues: Map<number, LeagueAcc>, narrowing: boolean): ArmAcc {
  let league: LeagueAcc | undefined;
  if (info.league) leagues.set(a, (league = new LeagueAcc((info.experiment?.bots ?? []).map((b) => b.name), info.luck)));
  const narrow = narrowing && seatingsReplay(info.seating) && !info.league;
  const acc = new ArmAcc(a, p, { ...(model ? { luck: model } : {}), ...(league ? { league, noPairs: true } : {}), ...(narrow ? { narrowing: true } : {}) });
  arms.set(a, acc);
  return acc;
}

/** The cv sums a run of `seating` makes (LuckFitFeed's `cv`, but in a league: none). */
export function cvKind(seating: string | undefined): 'pairs' | 'bots' {
  return (seating ?? 'fixed') === 'fixed' ? 'bots' : 'pairs';
}

/**
 * The luck's sums of the hands before `src.endDeal`, read from the file (`looks`: a stop rule's, so
 * that `sums(k + 1)` holds look k's deals; `cv`: which adjusted estimates' sums, or none).
 */
async function luckFeed(src: HandSource, info: RunInfo, looks: readonly number[], cv: 'pairs' | 'bots' | false): Promise<LuckFitFeed> {
  const feed = new LuckFitFeed(undefined, seatingsReplay(info.seating), looks, cv, src.endDeal ?? Infinity);
  for await (const rb of src.batches()) if (!feed.addRows(recordBatchView(rb))) break;
  return feed;
}

/**
 * The main passes over the hands: the luck fit (with luck), the accumulators, the narrowing
 * (`narrow`: per arm, each pair's Σz² by pair key). With luck, the bots' and pairs' adjusted
 * estimates come from the luck's sums (`sums`, or made from the file), and the rows are read without
 * their features; a league's (whose ratings take each deal's luck) and `byRows` (the reference the
 * tests compare the sums with) turn every seat-hand's features into its luck row by row.
 */
async function analyzeHands(src: HandSource, info: RunInfo, narrowing: boolean, sums?: LuckSums, fed?: SummaryFeed, byRows = false, pairsWanted = false): Promise<{ arms: Map<number, ArmAcc>; narrow: Map<number, Map<string, number>>; leagues: Map<number, LeagueAcc> }> {
  const replays = seatingsReplay(info.seating);
  const rows = info.luck && (byRows || !!info.league);
  if (info.luck && !sums?.cv && !rows) sums = (await luckFeed(src, info, [], pairsWanted ? 'pairs' : cvKind(info.seating))).sums();
  let model: LuckModel | undefined;
  if (rows) model = sums?.model ?? (await luckFeed(src, info, [], false)).fit();
  const narrow = narrowing && replays && !info.league;
  let arms = new Map<number, ArmAcc>();
  let leagues = new Map<number, LeagueAcc>();
  if (fed) {
    // The run fed pass 1 as it wrote the rows (SummaryFeed).
    fed.finish();
    arms = fed.arms;
    leagues = fed.leagues;
  } else await readRows(src, rows, replays, new Map(), (a, p) => armAcc(a, p, info, model, arms, leagues, narrowing));
  if (info.luck && !rows) adjustFromSums(arms, sums!);

  // The narrowing's interval: squared deviations about the first pass's means (pass 2), from the
  // inputs pass 1 kept (NarrowingLog), or, when a log was dropped, from the file again.
  const z2 = new Map<number, Map<string, number>>();
  if (!narrow) return { arms, narrow: z2, leagues };
  const meansOf = (acc: ArmAcc): Map<string, PairMeans> => {
    const m = new Map<string, PairMeans>();
    for (const [key, p] of acc.pairs) m.set(key, { hand: p.hands.mean, deal: p.raw.mean, ssHand: p.hands.variance * (p.hands.count - 1), ssDeal: p.raw.variance * (p.raw.count - 1) });
    return m;
  };
  if ([...arms.values()].every((acc) => acc.log && !acc.log.dropped)) {
    for (const acc of arms.values()) {
      const pairs = [...acc.pairs];
      const means = meansOf(acc);
      const sums = acc.log!.z2(pairs.map(([key]) => means.get(key)!));
      z2.set(acc.arm, new Map(pairs.map(([key, p]) => [key, sums[p.index]!])));
    }
    return { arms, narrow: z2, leagues };
  }
  const means = new Map<number, Map<string, PairMeans>>();
  for (const acc of arms.values()) means.set(acc.arm, meansOf(acc));
  const pass2 = new Map<number, ArmAcc>();
  await readRows(src, false, replays, new Map(), (a, p) => {
    const acc = new ArmAcc(a, p, { pass2: means.get(a)! });
    pass2.set(a, acc);
    return acc;
  });
  for (const acc of pass2.values()) z2.set(acc.arm, new Map([...acc.pairs].map(([key, p]) => [key, p.z2])));
  return { arms, narrow: z2, leagues };
}

/** A paired difference's raw and luck-adjusted estimates, each with its floor (eventFloor). */
function pairEstimates(acc: ArmAcc, p: PairAcc, luck: boolean): { diff: Estimate; adj: Estimate | null } {
  const k = p.raw.count;
  const floor = eventFloor([p.na, p.nb], acc.pointsSq.mean, p.ss / (k * k), p.eventDeals, k);
  const diff = floored(p.raw.estimate(), floor);
  if (!luck) return { diff, adj: null };
  const pseudo: Floor = { se: eventFloor([p.na, p.nb], acc.pointsSq.mean, 0, DEALS_TRUSTED, k).se, df: floor.df };
  return { diff, adj: p.adj.estimate(diff, p.eventDeals < DEALS_TRUSTED ? floor : pseudo) };
}

/** From this many deals holding events on, a floor keeps only its pseudo-events (stats.ts DEFF_TRUSTED_DF). */
const DEALS_TRUSTED = 30;

/** `e` with its standard error at least the floor's and its df at most the floor's. */
function floored(e: Estimate, f: Floor): Estimate {
  if (!Number.isFinite(e.mean)) return e;
  const se = Math.max(Number.isFinite(e.se) ? e.se : 0, f.se);
  const df = Number.isFinite(e.df) ? Math.min(e.df, f.df) : f.df;
  if (se === e.se && df === e.df) return e;
  const q = t975(df);
  return { ...e, se, df, lo: e.mean - q * se, hi: e.mean + q * se };
}

/**
 * The stop rule's estimate at a look: the luck-adjusted (raw without luck) paired difference a − b
 * in the first arm over the deals before `endDeal`, as the summary computes it.
 */
export async function stopEstimate(src: HandSource, meta: Map<string, string>, compare: readonly [string, string], sums?: LuckSums): Promise<Estimate> {
  const { raw, adjusted } = await pairedEstimates(src, meta, compare, sums);
  return adjusted ?? raw;
}

/**
 * The paired difference a − b in the first arm, raw and luck-adjusted (null without luck), as the
 * summary computes it, whatever the seating (fixed too: for benches).
 */
export async function pairedEstimates(src: HandSource, meta: Map<string, string>, compare: readonly [string, string], sums?: LuckSums, byRows = false): Promise<{ raw: Estimate; adjusted: Estimate | null }> {
  // Given the luck's sums (a run's looks), the rows need not hold the features.
  const info = sums ? infoOf(meta, true) : await runInfo(src, meta);
  const { arms } = await analyzeHands(src, info, false, sums, undefined, byRows, true);
  return pairOf(arms, compare, info.luck);
}

function pairOf(arms: Map<number, ArmAcc>, compare: readonly [string, string], luck: boolean): { raw: Estimate; adjusted: Estimate | null } {
  const acc = arms.get(0);
  const [a, b] = compare;
  const flip = a > b;
  const p = acc?.pairs.get(flip ? `${b}\u0000${a}` : `${a}\u0000${b}`);
  if (!acc || !p || p.raw.count < 2) return { raw: noEstimate('paired-deal-t'), adjusted: luck ? noEstimate('paired-deal-cv-t') : null };
  const { diff, adj } = pairEstimates(acc, p, luck);
  const turn = (e: Estimate): Estimate => (flip ? { ...e, mean: -e.mean, lo: -e.hi, hi: -e.lo } : e);
  return { raw: turn(diff), adjusted: adj ? turn(adj) : null };
}

function pairStop(arms: Map<number, ArmAcc>, compare: readonly [string, string], luck: boolean): Estimate {
  const { raw, adjusted } = pairOf(arms, compare, luck);
  return adjusted ?? raw;
}

/**
 * Summarize a finished run from its files. Paired comparisons are reported when the seating
 * design plays each deal under several seatings (rotate, duplicate); luck-adjusted estimates
 * when the run recorded luck; a league's ratings and a stop rule's looks when the experiment has them.
 */
export async function summarize(handsPath: string, winsPath: string, fed?: { readonly luck?: LuckFitFeed; readonly rows?: SummaryFeed }, opts: { readonly byRows?: boolean } = {}): Promise<Summary> {
  const meta = await readMetadata(handsPath);
  const src: HandSource = { batches: () => scanBatches(handsPath) }; // each pass is done with a batch before the next
  // Luck sums fed (a run, a merge of shards): luck on, whether or not the rows hold the features.
  const info = fed?.rows ? fed.rows.info : fed?.luck ? infoOf(meta, true) : await runInfo(src, meta);
  const { experiment, luck, seating } = info;
  if (fed?.rows && luck && !fed.luck) throw new Error('summary: rows fed with luck on need the luck sums fed too');
  // The luck's sums, per segment of a stop rule's looks: the run's, or read from the file.
  let feed = fed?.luck;
  if (luck && !feed && !opts.byRows) feed = await luckFeed(src, info, experiment?.stop ? lookPlan(info, undefined) : [], info.league ? false : cvKind(info.seating));
  const { arms, narrow, leagues } = await analyzeHands(src, info, true, feed?.sums(), fed?.rows, opts.byRows);

  let patterns = new Map<number, PatternAcc>();
  if (fed?.rows) patterns = fed.rows.patterns; // counted as the run wrote the wins
  else {
    for (const acc of arms.values()) patterns.set(acc.arm, new PatternAcc(acc.dealList));
    for await (const rb of scanBatches(winsPath)) winsBatch(recordBatchView(rb), arms, patterns);
    for (const pa of patterns.values()) pa.finish();
  }

  const out: ArmSummary[] = [...arms.values()]
    .sort((x, y) => x.arm - y.arm)
    .map((acc) => {
      const pa = patterns.get(acc.arm)!;
      const taiSd = Math.sqrt(acc.taiAll.variance);
      const bots: BotSummary[] = [...acc.bots.entries()]
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([bot, b]) => {
          const n = b.points.units;
          const k = b.points.clustersWithUnits;
          const floor = eventFloor(n, acc.pointsSq.mean, b.ss / (n * n), b.eventDeals, k);
          const pointsPerHand = b.points.ratio(undefined, floor);
          const wins = b.tai.units;
          // Tai per win: the arm's spread of tai per win over √(deals with a win); where every win of the arm had the same tai, pseudo-events of the typical tai.
          const taiFloor = taiSd > 0 ? undefined : { se: eventFloor(wins, acc.taiSq.mean, 0, DEALS_TRUSTED, b.tai.clustersWithUnits).se, df: Infinity };
          return {
            bot,
            hands: n,
            pointsPerHand,
            pointsPerHandAdjusted: luck ? b.adjusted.estimate(pointsPerHand, b.eventDeals < DEALS_TRUSTED ? floor : { se: eventFloor(n, acc.pointsSq.mean, 0, DEALS_TRUSTED, k).se, df: floor.df }) : null,
            winRate: props(b.wins),
            selfDrawShare: props(b.selfDraws),
            dealInRate: props(b.dealIns),
            taiPerWin: withinRange(b.tai.ratio(taiSd > 0 ? taiSd : undefined, taiFloor), 0),
          };
        });
      const distinct = new Set(bots.map((b) => b.bot)).size;
      const paired: PairedDifference[] = [];
      const z2 = narrow.get(acc.arm);
      for (const [key, p] of seating === 'fixed' ? [] : acc.pairs) {
        if (p.raw.count < 2) continue;
        const { diff, adj } = pairEstimates(acc, p, luck);
        const k = p.raw.count;
        // The same distinct hands, each on a wall of its own: the per-hand difference's variance over all of them.
        const h = p.hands;
        const independentHalfWidth = t975(h.count - 1) * h.se;
        paired.push({
          a: p.a,
          b: p.b,
          deals: k,
          diff,
          pValue: tTestP(diff.mean / diff.se, diff.df),
          pHolm: NaN,
          diffAdjusted: adj,
          pValueAdjusted: adj ? tTestP(adj.mean / adj.se, adj.df) : null,
          pHolmAdjusted: null,
          independentHalfWidth,
          narrowing: narrowingOf(h, p.raw, z2?.get(key) ?? NaN),
        });
      }
      const holmRaw = holm(paired.map((p) => p.pValue));
      const holmAdj = luck ? holm(paired.map((p) => p.pValueAdjusted ?? NaN)) : [];
      const pairedOut = paired.map((p, i) => ({ ...p, pHolm: holmRaw[i]!, pHolmAdjusted: luck ? holmAdj[i]! : null }));
      const outcomes: Record<string, Estimate> = {};
      for (const o of OUTCOMES) {
        if (o === 'void' && !(acc.outcomes.get(o)?.total ?? 0)) continue;
        outcomes[o] = acc.outcomes.get(o)?.proportion() ?? noEstimate('wilson-deff');
      }
      const warnings: string[] = [];
      if (seating === 'rotate' && distinct >= 3) warnings.push(ROTATE_WARNING);
      return {
        arm: acc.arm,
        profile: acc.profile,
        hands: acc.hands,
        deals: acc.deals,
        replays: acc.replays,
        outcomes,
        bots,
        paired: pairedOut,
        warnings,
        patterns: PATTERN_IDS.map((pattern, p) => ({
          pattern,
          wins: pa.counts[p]!,
          per1000Wins: pa.perWins(p).proportion(1000),
          per1000Hands: pa.perHands(p).proportion(1000),
        })),
      };
    });
  const league = info.league ? leagues.get(0)?.summary(info.league.design, info.league.tables, arms.get(0)!.pointsSq.mean) ?? undefined : undefined;
  const stop = experiment?.stop ? await stopSummary(src, meta, info, arms, feed, opts.byRows) : undefined;
  return {
    format: SUMMARY_FORMAT,
    experiment,
    version: meta.get('tw16.version') ?? '',
    hands: out.reduce((a, x) => a + x.hands, 0),
    wins: [...patterns.values()].reduce((a, x) => a + x.wins, 0),
    luck,
    estimators: ESTIMATORS,
    arms: out,
    ...(stop ? { stop } : {}),
    ...(league ? { league } : {}),
  };
}

/**
 * The stop rule's record from the files: every look up to the deals played (each estimated on the
 * deals before it, as the run did), the verdict of the last.
 */
async function stopSummary(src: HandSource, meta: Map<string, string>, info: RunInfo, arms: Map<number, ArmAcc>, feed: LuckFitFeed | undefined, byRows = false): Promise<StopSummary | undefined> {
  const e = info.experiment!;
  const rule = e.stop!;
  const deals = arms.get(0)?.deals ?? 0;
  const plan = lookPlan(info, deals);
  if (feed && feed.looks.join() !== plan.join()) throw new Error(`summary: the luck sums were made for looks at ${feed.looks.join(', ')} deals, the stop rule looks at ${plan.join(', ')}`);
  const design = stopDesign(plan, rule.alpha, rule.beta);
  const looks: Look[] = [];
  for (let k = 0; k < plan.length && plan[k]! <= deals; k++) {
    // Look k's estimate from the deals before it: the rows before it and its luck sums (segments 0 … k).
    const est = plan[k] === deals ? pairStop(arms, rule.compare, info.luck) : await pairedEstimates({ ...src, endDeal: plan[k]! }, meta, rule.compare, feed?.sums(k + 1), byRows).then(({ raw, adjusted }) => adjusted ?? raw);
    looks.push(decide(design, k, est, rule.delta));
  }
  const last = looks[looks.length - 1];
  if (!last) return undefined;
  const verdict = last.verdict === 'continue' ? 'undecided' : last.verdict;
  return {
    compare: rule.compare,
    delta: rule.delta,
    alpha: rule.alpha,
    beta: rule.beta,
    method: STOP_METHOD,
    verdict,
    deals: last.deals,
    maxDeals: e.deals ?? deals,
    estimate: { ...last.estimate, lo: last.lo, hi: last.hi, estimator: 'group-sequential-rci' },
    looks,
  };
}

/** The stop rule's looks (experiment.ts `stopLooks`), for a run of `deals` deals where the experiment does not say (or, undefined, its own). */
function lookPlan(info: RunInfo, deals: number | undefined): number[] {
  const e = info.experiment!;
  return stopLooks({ deals: e.deals ?? deals ?? 0, unit: e.unit ?? 'hands', stop: e.stop! });
}

/**
 * How many times narrower the paired interval is than independent hands would give:
 * √[(s²_hand / n_hands) / (s²_deal / deals)], its log's standard error by the delta method over
 * deals (`z2`: Σ_i (SS_hand,i / SS_hand − SS_deal,i / SS_deal)², each deal's share of the two
 * sums of squares), interval exp(log ± t·se) with deals − 1 df.
 */
function narrowingOf(hands: MeanStat, deals: MeanStat, z2: number): Estimate {
  const k = deals.count;
  const n = hands.count;
  if (k < 2 || n < 2) return noEstimate('sd-ratio-log-t');
  const r2 = hands.variance / n / (deals.variance / k);
  const mean = Math.sqrt(r2);
  if (!Number.isFinite(mean) || mean <= 0) return { ...noEstimate('sd-ratio-log-t'), mean };
  const seLog = Number.isFinite(z2) ? 0.5 * Math.sqrt((k / (k - 1)) * z2) : NaN;
  const q = t975(k - 1);
  return { mean, se: mean * seLog, df: k - 1, lo: mean * Math.exp(-q * seLog), hi: mean * Math.exp(q * seLog), estimator: 'sd-ratio-log-t' };
}
