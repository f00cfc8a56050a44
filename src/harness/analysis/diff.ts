/**
 * `tw16 diff A B`: what moved between two result directories of the same experiment (two
 * profiles, two code versions, two bots, a run and its rescore): pattern frequencies and bot
 * metrics with intervals on the change, and hand by hand, which hands came out differently,
 * each with the `tw16 replay` command that shows it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import type { PatternId, Wind } from '../../rules/types.js';
import { replayCommand } from '../../engine/hand.js';
import { InputError } from '../../core/errors.js';
import type { ReplaySpecs } from '../experiment/experiment.js';
import { io } from '../io/files.js';
import { openResult } from '../results/resultdir.js';
import { HAND_COLUMNS, WIN_COLUMNS } from '../results/records.js';
import type { ColumnSpec } from '../io/columns.js';
import { readBatches } from '../io/read.js';
import { t975, type Estimate } from './stats.js';
import type { BotSummary, Summary } from './summary.js';

/**
 * A change b − a with a 95% interval, treating the two estimates as independent (conservative
 * for the same deals): se = √(se_a² + se_b²), t with Welch–Satterthwaite df (an estimate from a
 * summary without df counts as Infinity).
 */
export function change(a: Estimate, b: Estimate): Estimate {
  const mean = b.mean - a.mean;
  const va = (a.se || 0) ** 2;
  const vb = (b.se || 0) ** 2;
  const se = Math.sqrt(va + vb);
  const dfOf = (e: Estimate) => (typeof e.df === 'number' && e.df > 0 ? e.df : Infinity);
  const df = va + vb > 0 ? (va + vb) ** 2 / ((va > 0 ? va * va / dfOf(a) : 0) + (vb > 0 ? vb * vb / dfOf(b) : 0)) : Infinity;
  const q = t975(Number.isNaN(df) ? Infinity : df);
  return { mean, se, lo: mean - q * se, hi: mean + q * se, df, estimator: 'difference-welch-t' };
}

export interface PatternChange {
  readonly profile: string;
  readonly pattern: PatternId;
  /** Per 1,000 wins. */
  readonly a: Estimate;
  readonly b: Estimate;
  readonly change: Estimate;
  /** Wins holding the pattern. */
  readonly winsA: number;
  readonly winsB: number;
}

export interface BotChange {
  readonly profile: string;
  readonly bot: string;
  readonly metric: BotMetric;
  readonly a: Estimate;
  readonly b: Estimate;
  readonly change: Estimate;
}

/** The per-bot metrics compared. */
export type BotMetric = 'pointsPerHand' | 'winRate' | 'selfDrawShare' | 'dealInRate' | 'taiPerWin';
const BOT_METRICS: readonly BotMetric[] = ['pointsPerHand', 'winRate', 'selfDrawShare', 'dealInRate', 'taiPerWin'];

/** One hand that came out differently. */
export interface ChangedHand {
  readonly deal: number;
  readonly arm: number;
  readonly seating: number;
  readonly hand: number;
  readonly handKey: number;
  /** Outcome, winners, tai and deltas in A and in B, as short text. */
  readonly a: string;
  readonly b: string;
  /** Replay commands for the hand under each side's profile. */
  readonly replayA: string;
  readonly replayB: string;
}

export interface DiffSummary {
  readonly a: string;
  readonly b: string;
  /** Every hand row and win row equal (file metadata such as the code version aside). */
  readonly identical: boolean;
  readonly hands: { readonly a: number; readonly b: number; readonly compared: number; readonly changed: number };
  readonly wins: { readonly a: number; readonly b: number; readonly changed: number };
  readonly patterns: readonly PatternChange[];
  readonly bots: readonly BotChange[];
  /** The first changed hands (up to the limit asked). */
  readonly changedHands: readonly ChangedHand[];
  /** Keys present on one side only (different sizes or experiments). */
  readonly unmatched: number;
}

/** The summary of a verified result (its manifest lists summary.json). */
function loadSummary(dir: string): Summary {
  const f = join(dir, 'summary.json');
  return JSON.parse(io(f, 'read', () => readFileSync(f, 'utf8'))) as Summary;
}

/** Rows of a file as arrays of values in `names` order, streaming. */
async function* rows(path: string, specs: readonly ColumnSpec[]): AsyncGenerator<unknown[]> {
  for await (const rb of readBatches(path)) {
    const cols = specs.map((spec) => colValues(rb, spec, path));
    for (let i = 0; i < rb.numRows; i++) yield cols.map((c) => c[i]);
  }
}

/** A column's values; a column newer than the file reads as its `absentAs` value (diffs across versions). */
function colValues(rb: RecordBatch, spec: ColumnSpec, path: string): ArrayLike<unknown> {
  const c = rb.getChild(spec.name);
  if (c) return c.toArray() as ArrayLike<unknown>;
  if (spec.absentAs !== undefined) return new Array<unknown>(rb.numRows).fill(spec.absentAs);
  throw new InputError(`${path}: column "${spec.name}" missing`);
}

const HAND_NAMES = HAND_COLUMNS.map((c) => c.name);
const H = Object.fromEntries(HAND_NAMES.map((n, i) => [n, i])) as Record<string, number>;
/** Columns that name the hand rather than its result. */
const KEY_COLS = ['deal', 'arm', 'seating', 'hand'].map((n) => H[n]!);
/**
 * Columns that may differ without the hand having played out differently: the profile's name, and
 * the luck features (what is measured at each chance event is a definition, not the play: files of
 * versions that measured other features, or none, still diff hand by hand).
 */
const LABEL_COLS = new Set(HAND_NAMES.flatMap((n, i) => (n === 'profile' || n.startsWith('luck_') ? [i] : [])));

function keyOf(r: unknown[]): string {
  return KEY_COLS.map((i) => r[i]).join('/');
}
function compareKeys(a: unknown[], b: unknown[]): number {
  for (const i of KEY_COLS) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

const W_SEAT = WIN_COLUMNS.findIndex((c) => c.name === 'seat');
const W_KEY_COLS = ['deal', 'arm', 'seating', 'hand'].map((n) => WIN_COLUMNS.findIndex((c) => c.name === n));

/** Order of two win rows' hands (deal, arm, seating, hand). */
function compareWinKeys(a: unknown[], b: unknown[]): number {
  for (const i of W_KEY_COLS) {
    const d = (a[i] as number) - (b[i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** Win rows grouped by hand (consecutive rows with the same deal, arm, seating and hand). */
async function* winGroups(it: AsyncGenerator<unknown[]>): AsyncGenerator<unknown[][]> {
  let group: unknown[][] = [];
  for await (const r of it) {
    if (group.length > 0 && compareWinKeys(group[0]!, r) !== 0) {
      yield group;
      group = [];
    }
    group.push(r);
  }
  if (group.length > 0) yield group;
}

/**
 * Compare two streams of win rows (WIN_COLUMNS order, in hand order), matched by (deal, arm,
 * seating, hand, seat), so a hand whose winners changed does not shift every row after it.
 * A row differs when its match is missing or any value but the profile label differs.
 */
export async function compareWinRows(a: AsyncGenerator<unknown[]>, b: AsyncGenerator<unknown[]>): Promise<{ a: number; b: number; changed: number }> {
  const profileCol = WIN_COLUMNS.findIndex((c) => c.name === 'profile');
  const same = (x: unknown[], y: unknown[]) => x.every((v, i) => i === profileCol || v === y[i]);
  const wa = winGroups(a);
  const wb = winGroups(b);
  const out = { a: 0, b: 0, changed: 0 };
  let ga = await wa.next();
  let gb = await wb.next();
  while (!ga.done || !gb.done) {
    const order = ga.done ? 1 : gb.done ? -1 : compareWinKeys(ga.value[0]!, gb.value[0]!);
    const left = order <= 0 && !ga.done ? ga.value : [];
    const right = order >= 0 && !gb.done ? gb.value : [];
    out.a += left.length;
    out.b += right.length;
    for (const x of left) {
      const y = right.find((r) => r[W_SEAT] === x[W_SEAT]);
      if (!y || !same(x, y)) out.changed++;
    }
    for (const y of right) if (!left.some((x) => x[W_SEAT] === y[W_SEAT])) out.changed++;
    if (order <= 0) ga = await wa.next();
    if (order >= 0) gb = await wb.next();
  }
  return out;
}

function describe(r: unknown[]): string {
  const winners = [0, 1, 2, 3].filter((s) => ((r[H.winners!] as number) >> s) & 1);
  const who = winners.map((s) => `seat ${s} ${r[H[`tai_${s}`]!]} tai`).join(', ');
  const deltas = [0, 1, 2, 3].map((s) => r[H[`delta_${s}`]!]).join('/');
  return `${r[H.outcome!]}${who ? ` (${who})` : ''}${r[H.win_tile!] ? ` on ${r[H.win_tile!]}` : ''}, deltas ${deltas}`;
}

/** The replay command of a hand row, with the result's replay specs (rule files, bot paths). */
function replay(r: unknown[], specs: ReplaySpecs): string {
  return replayCommand({
    seed: String(r[H.seed!]),
    handKey: r[H.hand_key!] as number,
    rules: { name: specs.rules[r[H.arm!] as number] ?? String(r[H.profile!]) },
    dealer: r[H.dealer!] as number,
    round: r[H.round!] as Wind,
    streak: r[H.streak!] as number,
    botNames: [0, 1, 2, 3].map((s) => String(r[H[`bot_${s}`]!])).map((name) => specs.bots[name] ?? name),
  });
}

/**
 * Compare two complete result directories (verified against their manifests first). `limit`
 * caps the changed hands listed (all are counted).
 */
export async function diffResults(a: string, b: string, limit = 20): Promise<DiffSummary> {
  const ma = await openResult(a);
  const mb = await openResult(b);
  const [sa, sb] = [loadSummary(a), loadSummary(b)];

  // Hand by hand, both files in (deal, arm, seating, hand) order: a merge join.
  const ia = rows(join(a, 'hands.arrow'), HAND_COLUMNS);
  const ib = rows(join(b, 'hands.arrow'), HAND_COLUMNS);
  let ra = await ia.next();
  let rb = await ib.next();
  let handsA = 0;
  let handsB = 0;
  let compared = 0;
  let changed = 0;
  let unmatched = 0;
  const changedHands: ChangedHand[] = [];
  while (!ra.done || !rb.done) {
    const c = ra.done ? 1 : rb.done ? -1 : compareKeys(ra.value, rb.value);
    if (c < 0) {
      handsA++;
      unmatched++;
      ra = await ia.next();
    } else if (c > 0) {
      handsB++;
      unmatched++;
      rb = await ib.next();
    } else {
      handsA++;
      handsB++;
      compared++;
      const x = ra.value as unknown[];
      const y = rb.value as unknown[];
      const same = x.every((v, i) => LABEL_COLS.has(i) || v === y[i]);
      if (!same) {
        changed++;
        if (changedHands.length < limit) {
          changedHands.push({
            deal: x[H.deal!] as number,
            arm: x[H.arm!] as number,
            seating: x[H.seating!] as number,
            hand: x[H.hand!] as number,
            handKey: x[H.hand_key!] as number,
            a: describe(x),
            b: describe(y),
            replayA: replay(x, ma.replay),
            replayB: replay(y, mb.replay),
          });
        }
      }
      ra = await ia.next();
      rb = await ib.next();
    }
  }

  const { a: winsA, b: winsB, changed: winsChanged } = await compareWinRows(rows(join(a, 'wins.arrow'), WIN_COLUMNS), rows(join(b, 'wins.arrow'), WIN_COLUMNS));

  const patterns: PatternChange[] = [];
  const bots: BotChange[] = [];
  for (const armA of sa.arms) {
    const armB = sb.arms.find((x) => x.arm === armA.arm);
    if (!armB) continue;
    const profile = armA.profile === armB.profile ? armA.profile : `${armA.profile}→${armB.profile}`;
    for (const pa of armA.patterns) {
      const pb = armB.patterns.find((x) => x.pattern === pa.pattern)!;
      if (pa.wins === 0 && pb.wins === 0) continue;
      patterns.push({ profile, pattern: pa.pattern, a: pa.per1000Wins, b: pb.per1000Wins, change: change(pa.per1000Wins, pb.per1000Wins), winsA: pa.wins, winsB: pb.wins });
    }
    for (const ba of armA.bots) {
      const bb = armB.bots.find((x) => x.bot === ba.bot);
      if (!bb) continue;
      for (const metric of BOT_METRICS) {
        const ea = ba[metric as keyof BotSummary] as Estimate;
        const eb = bb[metric as keyof BotSummary] as Estimate;
        bots.push({ profile, bot: ba.bot, metric, a: ea, b: eb, change: change(ea, eb) });
      }
    }
  }

  return {
    a,
    b,
    identical: changed === 0 && unmatched === 0 && winsChanged === 0,
    hands: { a: handsA, b: handsB, compared, changed },
    wins: { a: winsA, b: winsB, changed: winsChanged },
    patterns,
    bots,
    changedHands,
    unmatched,
  };
}
