/**
 * The summary of a run, computed from its files alone (so a resumed run, a rescored run and
 * `tw16 report` all agree): per bot and rule arm — hands, points per hand, win, self-draw,
 * deal-in and draw rates, tai per win — with 95% intervals clustered by deal; with rotate or
 * duplicate seating, paired per-deal differences between bots and how much the design
 * narrowed the interval against independent deals; outcome rates and pattern frequencies
 * per arm.
 */
import { PATTERN_IDS, type PatternId } from '../rules/types.js';
import { readBatches, readMetadata, utf8Values } from './read.js';
import { MeanStat, RatioStat, tTestP, wilson, Z95, type Estimate } from './stats.js';

/** Per-bot metrics within one rule arm. */
export interface BotSummary {
  readonly bot: string;
  /** Seat-hands played (one bot in one seat for one hand). */
  readonly hands: number;
  readonly pointsPerHand: Estimate;
  readonly winRate: Estimate;
  /** Self-drawn wins / wins. */
  readonly selfDrawShare: Estimate;
  /** Times it paid as discarder / seat-hands. */
  readonly dealInRate: Estimate;
  readonly taiPerWin: Estimate;
  /** Share of its seat-hands that ended drawn. */
  readonly drawRate: Estimate;
}

/** A paired comparison of two bots over the same deals. */
export interface PairedDifference {
  readonly a: string;
  readonly b: string;
  /** Mean of (a − b) points per seat-hand, per deal. */
  readonly diff: Estimate;
  readonly pValue: number;
  readonly deals: number;
  /**
   * Half-width of the 95% interval the same hands would give if each were played on a wall of
   * its own (per-hand differences of the two bots' mean deltas, treated as independent).
   */
  readonly independentHalfWidth: number;
  /** independentHalfWidth / paired half-width: how many times narrower the seating design made it. */
  readonly narrowing: number;
}

/** One pattern's frequency in an arm. */
export interface PatternFrequency {
  readonly pattern: PatternId;
  readonly wins: number;
  readonly per1000Wins: Estimate;
  readonly per1000Hands: Estimate;
}

/** Everything about one rule arm. */
export interface ArmSummary {
  readonly arm: number;
  readonly profile: string;
  readonly hands: number;
  readonly deals: number;
  readonly outcomes: Readonly<Record<string, Estimate>>;
  readonly bots: readonly BotSummary[];
  readonly paired: readonly PairedDifference[];
  readonly patterns: readonly PatternFrequency[];
}

export interface Summary {
  readonly experiment: unknown;
  readonly version: string;
  readonly hands: number;
  readonly wins: number;
  readonly arms: readonly ArmSummary[];
}

const SEATS = [0, 1, 2, 3] as const;
/** Every outcome a hand can have (engine `Outcome`), reported in this order. */
const OUTCOMES = ['win', 'self_draw', 'draw', 'instant', 'false_win'] as const;

interface BotAcc {
  points: RatioStat;
  wins: RatioStat;
  selfDraws: RatioStat;
  dealIns: RatioStat;
  tai: RatioStat;
  draws: RatioStat;
}

interface DealAcc {
  y: number;
  n: number;
  wins: number;
  selfDraws: number;
  dealIns: number;
  tai: number;
  draws: number;
}

/** A seating's bots: index of each seat's bot among the distinct names, and the pairs to compare. */
interface LineUp {
  readonly bots: readonly string[];
  readonly seatIndex: readonly number[];
  readonly count: readonly number[];
  readonly sum: Float64Array;
  readonly pairs: readonly { readonly i: number; readonly j: number; readonly stat: MeanStat }[];
}

class ArmAcc {
  hands = 0;
  deals = 0;
  readonly outcomes = new Map<string, RatioStat>();
  readonly bots = new Map<string, BotAcc>();
  readonly pairs = new Map<string, MeanStat>();
  /** Per-hand differences of each pair's mean delta: what independent deals would have measured. */
  readonly handPairs = new Map<string, MeanStat>();
  private readonly lineUps: LineUp[] = [];
  private current = -1;
  private deal = new Map<string, DealAcc>();
  private dealOutcomes = new Map<string, number>();
  private dealHands = 0;

  constructor(
    readonly arm: number,
    readonly profile: string,
  ) {}

  row(deal: number, bots: readonly string[], outcome: string, winners: number, discarder: number, deltas: readonly number[], tai: readonly number[]): void {
    if (deal !== this.current) this.closeDeal(deal);
    this.hands++;
    this.dealHands++;
    this.dealOutcomes.set(outcome, (this.dealOutcomes.get(outcome) ?? 0) + 1);
    const drawn = outcome === 'draw' ? 1 : 0;
    const lu = this.lineUp(bots);
    if (lu.pairs.length > 0) {
      const sum = lu.sum;
      sum.fill(0);
      for (const s of SEATS) sum[lu.seatIndex[s]!]! += deltas[s]!;
      for (const p of lu.pairs) p.stat.add(sum[p.i]! / lu.count[p.i]! - sum[p.j]! / lu.count[p.j]!);
    }
    for (const s of SEATS) {
      const name = bots[s]!;
      let d = this.deal.get(name);
      if (!d) this.deal.set(name, (d = { y: 0, n: 0, wins: 0, selfDraws: 0, dealIns: 0, tai: 0, draws: 0 }));
      const won = (winners >> s) & 1;
      d.y += deltas[s]!;
      d.n++;
      d.wins += won;
      d.selfDraws += won && outcome === 'self_draw' ? 1 : 0;
      d.dealIns += discarder === s ? 1 : 0;
      d.tai += won ? tai[s]! : 0;
      d.draws += drawn;
    }
  }

  finish(): void {
    this.closeDeal(-1);
  }

  /** The line-up of a row (at most 24 per arm, so a short list compared by value), made on first sight. */
  private lineUp(bots: readonly string[]): LineUp {
    for (const lu of this.lineUps) if (lu.bots[0] === bots[0] && lu.bots[1] === bots[1] && lu.bots[2] === bots[2] && lu.bots[3] === bots[3]) return lu;
    const names = [...new Set(bots)].sort();
    const seatIndex = bots.map((b) => names.indexOf(b));
    const count = names.map((n) => bots.filter((b) => b === n).length);
    const pairs: LineUp['pairs'][number][] = [];
    for (let i = 0; i < names.length; i++) {
      for (let j = i + 1; j < names.length; j++) {
        const key = `${names[i]}\u0000${names[j]}`;
        let stat = this.handPairs.get(key);
        if (!stat) this.handPairs.set(key, (stat = new MeanStat()));
        pairs.push({ i, j, stat });
      }
    }
    const lu: LineUp = { bots: [...bots], seatIndex, count, sum: new Float64Array(names.length), pairs };
    this.lineUps.push(lu);
    return lu;
  }

  private botAcc(name: string): BotAcc {
    let b = this.bots.get(name);
    if (!b) {
      b = { points: new RatioStat(), wins: new RatioStat(), selfDraws: new RatioStat(), dealIns: new RatioStat(), tai: new RatioStat(), draws: new RatioStat() };
      this.bots.set(name, b);
    }
    return b;
  }

  private closeDeal(next: number): void {
    if (this.current >= 0 && this.dealHands > 0) {
      this.deals++;
      for (const [name, d] of this.deal) {
        const b = this.botAcc(name);
        b.points.add(d.y, d.n);
        b.wins.add(d.wins, d.n);
        b.selfDraws.add(d.selfDraws, d.wins);
        b.dealIns.add(d.dealIns, d.n);
        b.tai.add(d.tai, d.wins);
        b.draws.add(d.draws, d.n);
      }
      const names = [...this.deal.keys()].sort();
      for (let i = 0; i < names.length; i++) {
        for (let j = i + 1; j < names.length; j++) {
          const a = this.deal.get(names[i]!)!;
          const c = this.deal.get(names[j]!)!;
          const key = `${names[i]}\u0000${names[j]}`;
          let m = this.pairs.get(key);
          if (!m) this.pairs.set(key, (m = new MeanStat()));
          m.add(a.y / a.n - c.y / c.n);
        }
      }
      for (const o of OUTCOMES) {
        let r = this.outcomes.get(o);
        if (!r) this.outcomes.set(o, (r = new RatioStat()));
        r.add(this.dealOutcomes.get(o) ?? 0, this.dealHands);
      }
    }
    this.current = next;
    this.deal = new Map();
    this.dealOutcomes = new Map();
    this.dealHands = 0;
  }
}

/** A rate's interval cut to [0, 1] (the normal approximation can stray outside near 0 and 1). */
function clamp01(e: Estimate): Estimate {
  return { ...e, lo: Math.max(0, e.lo), hi: Math.min(1, e.hi) };
}

/**
 * Summarize a finished run from its files. `paired` comparisons are reported when the
 * seating design plays each deal under several seatings (rotate, duplicate).
 */
export async function summarize(handsPath: string, winsPath: string): Promise<Summary> {
  const meta = await readMetadata(handsPath);
  const experiment = JSON.parse(meta.get('tw16.experiment') ?? 'null') as { seating?: string } | null;
  const seating = experiment?.seating ?? 'fixed';
  const arms = new Map<number, ArmAcc>();
  for await (const rb of readBatches(handsPath)) {
    const col = (n: string) => rb.getChild(n)!.toArray() as ArrayLike<number>;
    const deal = col('deal');
    const arm = col('arm');
    const winners = col('winners');
    const discarder = col('discarder');
    const profile = utf8Values(rb, 'profile');
    const outcome = utf8Values(rb, 'outcome');
    const bots = SEATS.map((s) => utf8Values(rb, `bot_${s}`));
    const deltas = SEATS.map((s) => col(`delta_${s}`));
    const tai = SEATS.map((s) => col(`tai_${s}`));
    const rowBots = ['', '', '', ''];
    const rowDeltas = [0, 0, 0, 0];
    const rowTai = [0, 0, 0, 0];
    for (let i = 0; i < rb.numRows; i++) {
      const a = arm[i]!;
      let acc = arms.get(a);
      if (!acc) arms.set(a, (acc = new ArmAcc(a, profile[i]!)));
      for (const s of SEATS) {
        rowBots[s] = bots[s]![i]!;
        rowDeltas[s] = deltas[s]![i]!;
        rowTai[s] = tai[s]![i]!;
      }
      acc.row(deal[i]!, rowBots, outcome[i]!, winners[i]!, discarder[i]!, rowDeltas, rowTai);
    }
  }
  for (const acc of arms.values()) acc.finish();

  const patternCounts = new Map<number, { wins: number; counts: number[] }>();
  for await (const rb of readBatches(winsPath)) {
    const arm = rb.getChild('arm')!.toArray() as ArrayLike<number>;
    const cols = PATTERN_IDS.map((id) => rb.getChild(id)!.toArray() as ArrayLike<number>);
    for (let i = 0; i < rb.numRows; i++) {
      let pc = patternCounts.get(arm[i]!);
      if (!pc) patternCounts.set(arm[i]!, (pc = { wins: 0, counts: PATTERN_IDS.map(() => 0) }));
      pc.wins++;
      for (let p = 0; p < cols.length; p++) if (cols[p]![i]! > 0) pc.counts[p]!++;
    }
  }

  const out: ArmSummary[] = [...arms.values()]
    .sort((x, y) => x.arm - y.arm)
    .map((acc) => {
      const pc = patternCounts.get(acc.arm) ?? { wins: 0, counts: PATTERN_IDS.map(() => 0) };
      const bots: BotSummary[] = [...acc.bots.entries()]
        .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
        .map(([bot, b]) => ({
          bot,
          hands: b.points.units,
          pointsPerHand: b.points.estimate(),
          winRate: clamp01(b.wins.estimate()),
          selfDrawShare: clamp01(b.selfDraws.estimate()),
          dealInRate: clamp01(b.dealIns.estimate()),
          taiPerWin: b.tai.estimate(),
          drawRate: clamp01(b.draws.estimate()),
        }));
      const paired: PairedDifference[] = [];
      for (const [key, m] of seating === 'fixed' ? [] : acc.pairs) {
        const [a, b] = key.split('\u0000') as [string, string];
        if (m.count < 2) continue;
        const diff = m.estimate();
        // The same hands, each on a wall of its own: the per-hand difference's variance over all hands.
        const h = acc.handPairs.get(key)!;
        const independentHalfWidth = Z95 * h.se;
        const half = diff.hi - diff.mean;
        paired.push({
          a,
          b,
          diff,
          pValue: tTestP(diff.mean / diff.se, m.count - 1),
          deals: m.count,
          independentHalfWidth,
          narrowing: half > 0 ? independentHalfWidth / half : NaN,
        });
      }
      const outcomes: Record<string, Estimate> = {};
      for (const o of OUTCOMES) outcomes[o] = clamp01(acc.outcomes.get(o)?.estimate() ?? { mean: 0, lo: 0, hi: 0, se: 0 });
      return {
        arm: acc.arm,
        profile: acc.profile,
        hands: acc.hands,
        deals: acc.deals,
        outcomes,
        bots,
        paired,
        patterns: PATTERN_IDS.map((pattern, p) => ({
          pattern,
          wins: pc.counts[p]!,
          per1000Wins: wilson(pc.counts[p]!, pc.wins, 1000),
          per1000Hands: wilson(pc.counts[p]!, acc.hands, 1000),
        })),
      };
    });
  return {
    experiment,
    version: meta.get('tw16.version') ?? '',
    hands: out.reduce((a, x) => a + x.hands, 0),
    wins: [...patternCounts.values()].reduce((a, x) => a + x.wins, 0),
    arms: out,
  };
}
