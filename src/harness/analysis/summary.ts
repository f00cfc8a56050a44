/**
 * The summary of a run, computed from its files alone (so a resumed run, a rescored run and
 * `tw16 report` all agree), written as summary.json (format SUMMARY_FORMAT, documented field
 * by field in results/README.md): per rule arm and bot — seat-hands, points per seat-hand raw
 * and luck-adjusted, win, self-draw and deal-in rates, tai per win — with 95% intervals
 * clustered by deal; with rotate or duplicate seating, paired per-deal differences between
 * bots (raw and luck-adjusted, each with a t-test and Holm's adjustment over the arm's pairs)
 * and how much the seating narrowed the interval against independent hands; the table's
 * outcome rates and pattern frequencies per arm. Every estimate names its estimator
 * (stats.ts ESTIMATORS).
 *
 * Rows that replay a seating already played on the same deal (the same bots in the same seats:
 * every byte of the hand repeats) are counted once.
 */
import { PATTERN_IDS, type PatternId } from '../../rules/types.js';
import { readBatches, readMetadata, utf8Values } from '../io/read.js';
import { ClusterStat, ESTIMATORS, holm, MeanStat, noEstimate, t975, tTestP, withinRange, type Estimate } from './stats.js';

/** summary.json's format tag; bumped whenever a field changes meaning or goes. */
export const SUMMARY_FORMAT = 'tw16-summary-2';

/** Per-bot metrics within one rule arm. */
export interface BotSummary {
  readonly bot: string;
  /** Distinct seat-hands played (one bot in one seat for one hand; replays of a seating counted once). */
  readonly hands: number;
  /** Points won per seat-hand (cluster-ratio-t). */
  readonly pointsPerHand: Estimate;
  /** Points less the recorded luck (hands.arrow `luck_s`) per seat-hand; null without luck records. */
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

/** A paired comparison of two bots over the same deals. */
export interface PairedDifference {
  readonly a: string;
  readonly b: string;
  readonly deals: number;
  /** Mean over deals of (a − b) points per seat-hand (paired-deal-t). */
  readonly diff: Estimate;
  /** Two-sided t-test of diff = 0, deals − 1 df. */
  readonly pValue: number;
  /** `pValue` adjusted by Holm over the arm's pairs. */
  readonly pHolm: number;
  /** The same on luck-adjusted points; null without luck records. */
  readonly diffAdjusted: Estimate | null;
  readonly pValueAdjusted: number | null;
  readonly pHolmAdjusted: number | null;
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

export interface Summary {
  /** SUMMARY_FORMAT. */
  readonly format: string;
  readonly experiment: unknown;
  readonly version: string;
  /** Distinct hands over all arms. */
  readonly hands: number;
  /** Win rows over all arms (replays left out). */
  readonly wins: number;
  /** The runs' luck records were used (hands.arrow has `luck_0..3` and the run had luck accounting on). */
  readonly luck: boolean;
  /** Every estimator named in this file, with what it computes. */
  readonly estimators: Readonly<Record<string, string>>;
  readonly arms: readonly ArmSummary[];
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
  adjusted: ClusterStat;
  wins: ClusterStat;
  selfDraws: ClusterStat;
  dealIns: ClusterStat;
  tai: ClusterStat;
}

interface DealAcc {
  y: number;
  adj: number;
  n: number;
  wins: number;
  selfDraws: number;
  dealIns: number;
  tai: number;
}

/** A pair's accumulators over the deals of an arm. */
interface PairAcc {
  readonly a: string;
  readonly b: string;
  readonly raw: MeanStat;
  readonly adj: MeanStat;
  /** Per-hand differences over all distinct hands (what independent walls would have measured). */
  readonly hands: MeanStat;
  /** Pass 2: Σ over deals of z_i² for the narrowing's delta method, and the current deal's sums. */
  z2: number;
  sumA: number;
  sumB: number;
  dealSS: number;
  dealD: number;
  dealHas: boolean;
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
      const d = new Float64Array(this.n * 2);
      d.set(this.deals);
      this.deals = d;
      const h = new Float64Array(this.n * 2);
      h.set(this.hands);
      this.hands = h;
    }
    this.deals[this.n] = deal;
    this.hands[this.n++] = hands;
  }
}

class ArmAcc {
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
  private readonly lineUps: LineUp[] = [];
  private current = -1;
  private deal = new Map<string, DealAcc>();
  private dealOutcomes = new Map<string, number>();
  private dealHands = 0;
  private seen = new Set<string>();

  constructor(
    readonly arm: number,
    readonly profile: string,
    /** Pass 2 (narrowing): the means the squared deviations are taken about, by pair key. */
    readonly pass2?: ReadonlyMap<string, { hand: number; deal: number; ssHand: number; ssDeal: number }>,
  ) {}

  /** One row; false when it replays a seating already played on this deal (left out). */
  row(deal: number, seating: number, hand: number, bots: readonly string[], outcome: string, winners: number, discarder: number, deltas: readonly number[], tai: readonly number[], luck: readonly number[]): void {
    if (deal !== this.current) this.closeDeal(deal);
    const lu = this.lineUp(bots);
    const playKey = `${lu.key}#${hand}`;
    if (this.seen.has(playKey)) {
      this.replays++;
      this.replayed.add(`${deal}/${seating}/${hand}`);
      return;
    }
    this.seen.add(playKey);
    this.hands++;
    this.dealHands++;
    this.dealOutcomes.set(outcome, (this.dealOutcomes.get(outcome) ?? 0) + 1);
    if (lu.pairs.length > 0) {
      const sum = lu.sum;
      sum.fill(0);
      for (const s of SEATS) sum[lu.seatIndex[s]!]! += deltas[s]!;
      for (const p of lu.pairs) {
        const e = sum[p.i]! / lu.count[p.i]! - sum[p.j]! / lu.count[p.j]!;
        if (this.pass2) {
          const m = this.pass2.get(`${p.acc.a}\u0000${p.acc.b}`)!;
          p.acc.dealSS += (e - m.hand) ** 2;
        } else p.acc.hands.add(e);
      }
    }
    for (const s of SEATS) {
      const name = bots[s]!;
      let d = this.deal.get(name);
      if (!d) this.deal.set(name, (d = { y: 0, adj: 0, n: 0, wins: 0, selfDraws: 0, dealIns: 0, tai: 0 }));
      const won = (winners >> s) & 1;
      d.y += deltas[s]!;
      d.adj += deltas[s]! - luck[s]!;
      d.n++;
      d.wins += won;
      d.selfDraws += won && outcome === 'self_draw' ? 1 : 0;
      d.dealIns += discarder === s ? 1 : 0;
      d.tai += won ? tai[s]! : 0;
      if (won && !this.pass2) this.taiAll.add(tai[s]!);
    }
  }

  finish(): void {
    this.closeDeal(-1);
  }

  /** The line-up of a row (a short list compared by value), made on first sight. */
  private lineUp(bots: readonly string[]): LineUp {
    for (const lu of this.lineUps) if (lu.bots[0] === bots[0] && lu.bots[1] === bots[1] && lu.bots[2] === bots[2] && lu.bots[3] === bots[3]) return lu;
    const names = [...new Set(bots)].sort();
    const seatIndex = bots.map((b) => names.indexOf(b));
    const count = names.map((n) => bots.filter((b) => b === n).length);
    const pairs: LineUp['pairs'][number][] = [];
    for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) pairs.push({ i, j, acc: this.pairAcc(names[i]!, names[j]!) });
    const lu: LineUp = { bots: [...bots], key: bots.join('\u0000'), seatIndex, count, sum: new Float64Array(names.length), pairs };
    this.lineUps.push(lu);
    return lu;
  }

  private pairAcc(a: string, b: string): PairAcc {
    const key = `${a}\u0000${b}`;
    let p = this.pairs.get(key);
    if (!p) this.pairs.set(key, (p = { a, b, raw: new MeanStat(), adj: new MeanStat(), hands: new MeanStat(), z2: 0, sumA: 0, sumB: 0, dealSS: 0, dealD: 0, dealHas: false }));
    return p;
  }

  private botAcc(name: string): BotAcc {
    let b = this.bots.get(name);
    if (!b) {
      b = { points: new ClusterStat(), adjusted: new ClusterStat(), wins: new ClusterStat(), selfDraws: new ClusterStat(), dealIns: new ClusterStat(), tai: new ClusterStat() };
      this.bots.set(name, b);
    }
    return b;
  }

  private closeDeal(next: number): void {
    if (this.current >= 0 && this.dealHands > 0) {
      this.deals++;
      this.dealList.push(this.current, this.dealHands);
      for (const [name, d] of this.deal) {
        const b = this.botAcc(name);
        b.points.add(d.y, d.n);
        b.adjusted.add(d.adj, d.n);
        b.wins.add(d.wins, d.n);
        b.selfDraws.add(d.selfDraws, d.wins);
        b.dealIns.add(d.dealIns, d.n);
        b.tai.add(d.tai, d.wins);
      }
      const names = [...this.deal.keys()].sort();
      for (let i = 0; i < names.length; i++) {
        for (let j = i + 1; j < names.length; j++) {
          const a = this.deal.get(names[i]!)!;
          const c = this.deal.get(names[j]!)!;
          const p = this.pairAcc(names[i]!, names[j]!);
          const dRaw = a.y / a.n - c.y / c.n;
          if (this.pass2) {
            // The narrowing's delta method: this deal's share of each sum of squares.
            const m = this.pass2.get(`${p.a}\u0000${p.b}`)!;
            const z = p.dealSS / m.ssHand - (dRaw - m.deal) ** 2 / m.ssDeal;
            p.z2 += z * z;
          } else {
            p.raw.add(dRaw);
            p.adj.add(a.adj / a.n - c.adj / c.n);
          }
          p.dealSS = 0;
        }
      }
      for (const o of OUTCOMES) {
        let r = this.outcomes.get(o);
        if (!r) this.outcomes.set(o, (r = new ClusterStat()));
        r.add(this.dealOutcomes.get(o) ?? 0, this.dealHands);
      }
    }
    this.current = next;
    this.deal = new Map();
    this.dealOutcomes = new Map();
    this.dealHands = 0;
    this.seen = new Set();
  }
}

/** Per arm, the wins pass: clustered pattern counts per 1,000 wins and per 1,000 hands. */
class PatternAcc {
  readonly perWins = PATTERN_IDS.map(() => new ClusterStat());
  readonly perHands = PATTERN_IDS.map(() => new ClusterStat());
  readonly counts = PATTERN_IDS.map(() => 0);
  wins = 0;
  /** Next deal of the list to close. */
  private cursor = 0;
  /** The deal whose wins are being counted (the list's deal at `cursor`), or −1. */
  private deal = -1;
  private dealWins = 0;
  private readonly dealCounts = PATTERN_IDS.map(() => 0);

  constructor(private readonly list: DealList) {}

  /** One win row of `deal` (deals arrive in the order of the list). */
  win(deal: number, has: (p: number) => boolean): void {
    if (deal !== this.deal) {
      this.closeDeal();
      this.skipTo(deal);
      this.deal = deal;
    }
    this.wins++;
    this.dealWins++;
    for (let p = 0; p < PATTERN_IDS.length; p++) {
      if (has(p)) {
        this.counts[p]!++;
        this.dealCounts[p]!++;
      }
    }
  }

  /** Close the last deal and the deals after it, which had no wins. */
  finish(): void {
    this.closeDeal();
    this.skipTo(NaN);
  }

  private closeDeal(): void {
    if (this.deal < 0) return;
    const hands = this.list.hands[this.cursor]!;
    for (let p = 0; p < PATTERN_IDS.length; p++) {
      this.perWins[p]!.add(this.dealCounts[p]!, this.dealWins);
      this.perHands[p]!.add(this.dealCounts[p]!, hands);
    }
    this.cursor++;
    this.deal = -1;
    this.dealWins = 0;
    this.dealCounts.fill(0);
  }

  /** Deals before `deal` had no wins: empty clusters (every hand counts in per 1,000 hands). */
  private skipTo(deal: number): void {
    const L = this.list;
    while (this.cursor < L.n && L.deals[this.cursor] !== deal) {
      for (let p = 0; p < PATTERN_IDS.length; p++) {
        this.perWins[p]!.add(0, 0);
        this.perHands[p]!.add(0, L.hands[this.cursor]!);
      }
      this.cursor++;
    }
  }
}

/** The estimate of a ratio or NaN-filled when no unit was seen. */
function props(c: ClusterStat, per = 1): Estimate {
  return c.proportion(per);
}

/** Read every row of hands.arrow into the arms' accumulators (one pass). */
async function readHands(handsPath: string, arms: Map<number, ArmAcc>, make: (arm: number, profile: string) => ArmAcc, luckOn: boolean): Promise<void> {
  for await (const rb of readBatches(handsPath)) {
    const col = (n: string) => rb.getChild(n)!.toArray() as ArrayLike<number>;
    const deal = col('deal');
    const arm = col('arm');
    const seating = col('seating');
    const hand = col('hand');
    const winners = col('winners');
    const discarder = col('discarder');
    const profile = utf8Values(rb, 'profile');
    const outcome = utf8Values(rb, 'outcome');
    const bots = SEATS.map((s) => utf8Values(rb, `bot_${s}`));
    const deltas = SEATS.map((s) => col(`delta_${s}`));
    const tai = SEATS.map((s) => col(`tai_${s}`));
    const luck = luckOn ? SEATS.map((s) => col(`luck_${s}`)) : null;
    const rowBots = ['', '', '', ''];
    const rowDeltas = [0, 0, 0, 0];
    const rowTai = [0, 0, 0, 0];
    const rowLuck = [0, 0, 0, 0];
    for (let i = 0; i < rb.numRows; i++) {
      const a = arm[i]!;
      let acc = arms.get(a);
      if (!acc) arms.set(a, (acc = make(a, profile[i]!)));
      for (const s of SEATS) {
        rowBots[s] = bots[s]![i]!;
        rowDeltas[s] = deltas[s]![i]!;
        rowTai[s] = tai[s]![i]!;
        rowLuck[s] = luck ? luck[s]![i]! : 0;
      }
      acc.row(deal[i]!, seating[i]!, hand[i]!, rowBots, outcome[i]!, winners[i]!, discarder[i]!, rowDeltas, rowTai, rowLuck);
    }
  }
  for (const acc of arms.values()) acc.finish();
}

/**
 * Summarize a finished run from its files. Paired comparisons are reported when the seating
 * design plays each deal under several seatings (rotate, duplicate); luck-adjusted estimates
 * when the run recorded luck.
 */
export async function summarize(handsPath: string, winsPath: string): Promise<Summary> {
  const meta = await readMetadata(handsPath);
  const experiment = JSON.parse(meta.get('tw16.experiment') ?? 'null') as { seating?: string; luck?: boolean } | null;
  const seating = experiment?.seating ?? 'fixed';
  let luck = experiment?.luck !== false;
  if (luck) {
    // Files written before luck records (or by a run with luck off) have no luck columns.
    luck = false;
    for await (const rb of readBatches(handsPath)) {
      luck = rb.getChild('luck_0') !== null;
      break;
    }
  }

  const arms = new Map<number, ArmAcc>();
  await readHands(handsPath, arms, (a, p) => new ArmAcc(a, p), luck);

  // Pass 2, for the narrowing's interval: squared deviations about the pass-1 means.
  const pass2 = new Map<number, ArmAcc>();
  const means = new Map<number, Map<string, { hand: number; deal: number; ssHand: number; ssDeal: number }>>();
  for (const acc of arms.values()) {
    const m = new Map<string, { hand: number; deal: number; ssHand: number; ssDeal: number }>();
    for (const [key, p] of acc.pairs) m.set(key, { hand: p.hands.mean, deal: p.raw.mean, ssHand: p.hands.variance * (p.hands.count - 1), ssDeal: p.raw.variance * (p.raw.count - 1) });
    means.set(acc.arm, m);
  }
  if (seating !== 'fixed') await readHands(handsPath, pass2, (a, p) => new ArmAcc(a, p, means.get(a)), luck);

  const patterns = new Map<number, PatternAcc>();
  for (const acc of arms.values()) patterns.set(acc.arm, new PatternAcc(acc.dealList));
  for await (const rb of readBatches(winsPath)) {
    const col = (n: string) => rb.getChild(n)!.toArray() as ArrayLike<number>;
    const deal = col('deal');
    const arm = col('arm');
    const seatingCol = col('seating');
    const hand = col('hand');
    const cols = PATTERN_IDS.map((id) => col(id));
    for (let i = 0; i < rb.numRows; i++) {
      const acc = arms.get(arm[i]!);
      const pa = patterns.get(arm[i]!);
      if (!acc || !pa) continue;
      if (acc.replays > 0 && acc.replayed.has(`${deal[i]}/${seatingCol[i]}/${hand[i]}`)) continue;
      pa.win(deal[i]!, (p) => cols[p]![i]! > 0);
    }
  }
  for (const pa of patterns.values()) pa.finish();

  const out: ArmSummary[] = [...arms.values()]
    .sort((x, y) => x.arm - y.arm)
    .map((acc) => {
      const pa = patterns.get(acc.arm)!;
      const taiSd = Math.sqrt(acc.taiAll.variance);
      const bots: BotSummary[] = [...acc.bots.entries()]
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([bot, b]) => ({
          bot,
          hands: b.points.units,
          pointsPerHand: b.points.ratio(),
          pointsPerHandAdjusted: luck ? b.adjusted.ratio() : null,
          winRate: props(b.wins),
          selfDrawShare: props(b.selfDraws),
          dealInRate: props(b.dealIns),
          taiPerWin: withinRange(b.tai.ratio(Number.isFinite(taiSd) && taiSd > 0 ? taiSd : 1), 0),
        }));
      const distinct = new Set(bots.map((b) => b.bot)).size;
      const paired: PairedDifference[] = [];
      const p2 = [...pass2.values()].find((x) => x.arm === acc.arm);
      for (const [key, p] of seating === 'fixed' ? [] : acc.pairs) {
        if (p.raw.count < 2) continue;
        const diff = p.raw.estimate();
        const adj = luck ? p.adj.estimate() : null;
        const k = p.raw.count;
        // The same distinct hands, each on a wall of its own: the per-hand difference's variance over all of them.
        const h = p.hands;
        const independentHalfWidth = t975(h.count - 1) * h.se;
        paired.push({
          a: p.a,
          b: p.b,
          deals: k,
          diff,
          pValue: tTestP(diff.mean / diff.se, k - 1),
          pHolm: NaN,
          diffAdjusted: adj,
          pValueAdjusted: adj ? tTestP(adj.mean / adj.se, k - 1) : null,
          pHolmAdjusted: null,
          independentHalfWidth,
          narrowing: narrowingOf(h, p.raw, p2?.pairs.get(key)?.z2 ?? NaN),
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
          per1000Wins: pa.perWins[p]!.proportion(1000),
          per1000Hands: pa.perHands[p]!.proportion(1000),
        })),
      };
    });
  return {
    format: SUMMARY_FORMAT,
    experiment,
    version: meta.get('tw16.version') ?? '',
    hands: out.reduce((a, x) => a + x.hands, 0),
    wins: [...patterns.values()].reduce((a, x) => a + x.wins, 0),
    luck,
    estimators: ESTIMATORS,
    arms: out,
  };
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
