/**
 * `tw16 diff A B`: what moved between two result directories of the same experiment (two
 * profiles, two code versions, two bots, a run and its rescore): pattern frequencies and bot
 * metrics with intervals on the change, and hand by hand, which hands came out differently,
 * each with the `tw16 replay` command that shows it.
 */
import { join } from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import type { PatternId, Wind } from '../../rules/types.js';
import { replayCommand } from '../experiment/replay.js';
import { InputError } from '../../core/errors.js';
import type { ReplaySpecs } from '../experiment/experiment.js';
import { readJsonFile } from '../io/files.js';
import { openResult, type Manifest } from '../results/resultdir.js';
import { scoreCommand, winFactsFromRow, type WinRow } from '../results/winrow.js';
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
  /** The commands that replay the hand as each side played it (a rescore's: as the run it rescored). */
  readonly replayA: string;
  readonly replayB: string;
  /** A side that is a rescore: the play is its replay command's, and each win was re-scored by these (one `tw16 score` per winner). */
  readonly rescoredA?: RescoredHand;
  readonly rescoredB?: RescoredHand;
}

/** How a rescored side's hand came to be: the play as replayed, each win scored under `rules`. */
export interface RescoredHand {
  /** The rules the wins were re-scored under (as `--rules` takes them). */
  readonly rules: string;
  /** A `tw16 score` command per winner (an instant flower win has none). */
  readonly score: readonly string[];
}

/** A side of the diff that is a rescore (tw16 rescore): what the comparison can and cannot say. */
export interface RescoreSide {
  /** The profile the wins were re-scored under. */
  readonly profile: string;
  /** The profiles the hands were played under, by arm. */
  readonly played: readonly string[];
}

export interface DiffSummary {
  readonly a: string;
  readonly b: string;
  /** Every hand row and win row equal (file metadata such as the code version aside). */
  readonly identical: boolean;
  /** Hand rows of each side, those on both (compared) and of them those that changed; `onlyA`/`onlyB`: on one side only. */
  readonly hands: { readonly a: number; readonly b: number; readonly compared: number; readonly changed: number; readonly onlyA: number; readonly onlyB: number };
  /** Win rows of each side; of the hands on both sides, those that differ; `unmatched`: of hands on one side only. */
  readonly wins: { readonly a: number; readonly b: number; readonly changed: number; readonly unmatched: number };
  /** Deals of each side's experiment. */
  readonly deals: { readonly a: number; readonly b: number };
  readonly patterns: readonly PatternChange[];
  readonly bots: readonly BotChange[];
  /** The first changed hands (up to the limit asked). */
  readonly changedHands: readonly ChangedHand[];
  /** Keys present on one side only (different sizes or experiments). */
  readonly unmatched: number;
  /** Sides that are rescores: their hands were played under other rules (see RescoreSide). */
  readonly rescored: { readonly a?: RescoreSide; readonly b?: RescoreSide };
}

/** The summary of a verified result (its manifest lists summary.json). */
function loadSummary(dir: string): Summary {
  const f = join(dir, 'summary.json');
  return readJsonFile(f) as Summary;
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

/** A win row's hand (deal/arm/seating/hand), as keyOf gives a hand row's. */
const winKey = (w: unknown[]) => W_KEY_COLS.map((i) => w[i]).join('/');

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
export async function compareWinRows(
  a: AsyncGenerator<unknown[]>,
  b: AsyncGenerator<unknown[]>,
  /** Hands (`deal/arm/seating/hand`) on one side only: their rows are counted apart (`unmatched`), not as changed. */
  oneSided?: ReadonlySet<string>,
): Promise<{ a: number; b: number; changed: number; unmatched: number }> {
  const profileCol = WIN_COLUMNS.findIndex((c) => c.name === 'profile');
  const same = (x: unknown[], y: unknown[]) => x.every((v, i) => i === profileCol || v === y[i]);
  const wa = winGroups(a);
  const wb = winGroups(b);
  const out = { a: 0, b: 0, changed: 0, unmatched: 0 };
  let ga = await wa.next();
  let gb = await wb.next();
  while (!ga.done || !gb.done) {
    const order = ga.done ? 1 : gb.done ? -1 : compareWinKeys(ga.value[0]!, gb.value[0]!);
    const left = order <= 0 && !ga.done ? ga.value : [];
    const right = order >= 0 && !gb.done ? gb.value : [];
    out.a += left.length;
    out.b += right.length;
    if (oneSided && oneSided.size > 0 && oneSided.has(winKey(left[0] ?? right[0]!))) {
      out.unmatched += left.length + right.length;
      if (order <= 0) ga = await wa.next();
      if (order >= 0) gb = await wb.next();
      continue;
    }
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

/** The replay command of a hand row as played, with the result's replay specs (rule files, bot paths). */
function replay(r: unknown[], specs: ReplaySpecs): string {
  return replayCommand({
    seed: String(r[H.seed!]),
    handKey: r[H.hand_key!] as number,
    rules: specs.rules[r[H.arm!] as number] ?? String(r[H.profile!]),
    dealer: r[H.dealer!] as number,
    round: r[H.round!] as Wind,
    streak: r[H.streak!] as number,
    bots: [0, 1, 2, 3].map((s) => String(r[H[`bot_${s}`]!])).map((name) => specs.bots[name] ?? name),
  });
}


/**
 * The `tw16 score` commands of the wins of `hands` (hand rows of a rescored side, by key) under
 * `rules`, read from that side's wins.arrow.
 */
async function scoreCommands(dir: string, hands: ReadonlyMap<string, unknown[]>, rules: string, stakes: { base: number; perTai: number }): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (hands.size === 0) return out;
  const W = Object.fromEntries(WIN_COLUMNS.map((c, i) => [c.name, i])) as Record<string, number>;
  for await (const w of rows(join(dir, 'wins.arrow'), WIN_COLUMNS)) {
    const key = winKey(w);
    const h = hands.get(key);
    if (!h) continue;
    const facts = winFactsFromRow(Object.fromEntries(WIN_ROW_FIELDS.map((f) => [f, w[W[f]!]])) as unknown as WinRow);
    const dealer = h[H.dealer!] as number;
    const discarder = h[H.discarder!] as number;
    const cmd = scoreCommand(
      facts,
      {
        ...(discarder >= 0 ? { discarder: (((discarder - dealer) % 4) + 4) % 4 as Wind } : {}),
        streak: h[H.streak!] as number,
        ready: w[W.ready!] === true,
        base: stakes.base,
        perTai: stakes.perTai,
      },
      rules,
    );
    if (cmd) out.set(key, [...(out.get(key) ?? []), cmd]);
  }
  return out;
}

/** The WinRow fields of a wins.arrow row. */
const WIN_ROW_FIELDS = ['concealed', 'melds', 'concealed_kongs', 'flowers', 'win_tile', 'self_drawn', 'wind_seat', 'wind_round', 'last_tile', 'after_kong', 'robbed_kong', 'heavenly'] as const;

/** The deals of a result's experiment (0 when its manifest does not say). */
function dealsOf(m: Manifest): number {
  const d = (m.experiment as { deals?: unknown } | null)?.deals;
  return typeof d === 'number' ? d : 0;
}

/** A rescore side of a result's manifest, or undefined for a run. */
function rescoreSide(m: Manifest, s: Summary): RescoreSide | undefined {
  if (m.kind !== 'rescore') return undefined;
  return { profile: m.rescore?.profile ?? s.arms[0]?.profile ?? '?', played: m.rescore ? m.replay.rules.map((r) => r.replace(/^.*\//, '').replace(/\.json$/, '')) : [] };
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
  let onlyA = 0;
  let onlyB = 0;
  /** Hands on one side only, so their win rows are not counted as changed (different sizes, seatings or experiments). */
  const oneSided = new Set<string>();
  const changedHands: ChangedHand[] = [];
  /** The listed changed hands' rows, by key: a rescored side needs them for its score commands. */
  const listedA = new Map<string, unknown[]>();
  const listedB = new Map<string, unknown[]>();
  while (!ra.done || !rb.done) {
    const c = ra.done ? 1 : rb.done ? -1 : compareKeys(ra.value, rb.value);
    if (c < 0) {
      handsA++;
      unmatched++;
      onlyA++;
      oneSided.add(keyOf(ra.value as unknown[]));
      ra = await ia.next();
    } else if (c > 0) {
      handsB++;
      unmatched++;
      onlyB++;
      oneSided.add(keyOf(rb.value as unknown[]));
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
          listedA.set(keyOf(x), x);
          listedB.set(keyOf(y), y);
        }
      }
      ra = await ia.next();
      rb = await ib.next();
    }
  }

  const { a: winsA, b: winsB, changed: winsChanged, unmatched: winsUnmatched } = await compareWinRows(rows(join(a, 'wins.arrow'), WIN_COLUMNS), rows(join(b, 'wins.arrow'), WIN_COLUMNS), oneSided);

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

  // A rescored side: its hands' play is its replay command's; each win gets the score command that re-scores it.
  const stakesOf = (m: Manifest) => (m.experiment as { stakes?: { base: number; perTai: number } } | null)?.stakes ?? { base: 1, perTai: 1 };
  const rescoredOf = async (m: Manifest, dir: string, listed: Map<string, unknown[]>): Promise<((h: ChangedHand) => RescoredHand) | undefined> => {
    if (m.kind !== 'rescore' || !m.rescore) return undefined;
    const rules = m.rescore.rules;
    const cmds = await scoreCommands(dir, listed, rules, stakesOf(m));
    return (h) => ({ rules, score: cmds.get(`${h.deal}/${h.arm}/${h.seating}/${h.hand}`) ?? [] });
  };
  const [withA, withB] = [await rescoredOf(ma, a, listedA), await rescoredOf(mb, b, listedB)];
  const listed = changedHands.map((h) => ({ ...h, ...(withA ? { rescoredA: withA(h) } : {}), ...(withB ? { rescoredB: withB(h) } : {}) }));
  const [ra2, rb2] = [rescoreSide(ma, sa), rescoreSide(mb, sb)];

  return {
    a,
    b,
    identical: changed === 0 && unmatched === 0 && winsChanged === 0,
    hands: { a: handsA, b: handsB, compared, changed, onlyA, onlyB },
    wins: { a: winsA, b: winsB, changed: winsChanged, unmatched: winsUnmatched },
    deals: { a: dealsOf(ma), b: dealsOf(mb) },
    patterns,
    bots,
    changedHands: listed,
    unmatched,
    rescored: { ...(ra2 ? { a: ra2 } : {}), ...(rb2 ? { b: rb2 } : {}) },
  };
}
