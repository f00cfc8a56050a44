/**
 * `tw16 diff A B`: what moved between two result directories of the same experiment (two
 * profiles, two code versions, two bots, a run and its rescore): pattern frequencies and bot
 * metrics with intervals on the change, and hand by hand, which hands came out differently,
 * each with the `tw16 replay` command that shows it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import type { PatternId, Wind } from '../rules/types.js';
import { replayCommand } from '../engine/hand.js';
import { InputError } from '../core/errors.js';
import type { ReplaySpecs } from './experiment.js';
import { io } from './files.js';
import { openResult } from './resultdir.js';
import { HAND_COLUMNS, WIN_COLUMNS } from './records.js';
import type { ColumnSpec } from './columns.js';
import { readBatches } from './read.js';
import { Z95, type Estimate } from './stats.js';
import type { BotSummary, Summary } from './summary.js';

/** A change b − a with a 95% interval, treating the two estimates as independent (conservative for the same deals). */
export function change(a: Estimate, b: Estimate): Estimate {
  const mean = b.mean - a.mean;
  const se = Math.sqrt((a.se || 0) ** 2 + (b.se || 0) ** 2);
  return { mean, se, lo: mean - Z95 * se, hi: mean + Z95 * se };
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
export type BotMetric = 'pointsPerHand' | 'winRate' | 'selfDrawShare' | 'dealInRate' | 'taiPerWin' | 'drawRate';
const BOT_METRICS: readonly BotMetric[] = ['pointsPerHand', 'winRate', 'selfDrawShare', 'dealInRate', 'taiPerWin', 'drawRate'];

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
/** Columns that may differ without the hand having played out differently. */
const LABEL_COLS = new Set(['profile'].map((n) => H[n]!));

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

  // Win rows in lockstep (same order as hands); any difference in tai, patterns or the hand counts.
  const wa = rows(join(a, 'wins.arrow'), WIN_COLUMNS);
  const wb = rows(join(b, 'wins.arrow'), WIN_COLUMNS);
  const profileCol = WIN_COLUMNS.findIndex((c) => c.name === 'profile');
  let winsA = 0;
  let winsB = 0;
  let winsChanged = 0;
  for (;;) {
    const [x, y] = await Promise.all([wa.next(), wb.next()]);
    if (x.done && y.done) break;
    if (!x.done) winsA++;
    if (!y.done) winsB++;
    if (x.done || y.done || !(x.value as unknown[]).every((v, i) => i === profileCol || v === (y.value as unknown[])[i])) winsChanged++;
  }

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
