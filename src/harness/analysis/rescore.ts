/**
 * `tw16 rescore`: re-score every stored win of a finished run under another profile (or a
 * house-rule file) without replaying, re-settle each hand, and write a new result directory
 * (hands.arrow, wins.arrow, summary.json) plus rescore.json: tai per win before and after,
 * pattern frequencies before and after, and the wins that are no longer wins.
 *
 * What cannot change without replaying is left as played: who won and on which tile, the
 * turns, and hands that were drawn. A win that does not qualify under the new profile (below its
 * minimum, or no longer a win) is not a win there: its row leaves wins.arrow, its seat leaves the
 * hand's winners and nobody pays it; a hand left with no winner gets the outcome `void` (no
 * payment, like a drawn hand). Play would have gone on, and a rescore cannot know how: those
 * wins are counted and listed apart. The statistics before and after are the runs' own
 * (summary.ts: clustered by deal), per arm.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { RecordBatch } from 'apache-arrow';
import { InputError, UsageError } from '../../core/errors.js';
import { VERSION } from '../../version.js';
import { getProfile, scoreFlowerWin, scoreHand, settle, type Profile } from '../../rules/index.js';
import { PATTERN_IDS, type PatternId, type Wind } from '../../rules/types.js';
import { ArrowTableWriter } from '../io/arrow.js';
import { encodeStrings, keepRows, type Batch } from '../io/columns.js';
import { io, writeAtomic } from '../io/files.js';
import { readBatches, readMetadata, readSchema, toBatch } from '../io/read.js';
import { HAND_COLUMNS, handColumnsIn, WIN_COLUMNS } from '../results/records.js';
import { withDirLock } from '../results/lock.js';
import { commitResult, hasManifest, MANIFEST, openResult, withStaging, type Manifest } from '../results/resultdir.js';
import { noEstimate, type Estimate } from './stats.js';
import { summarize, type Summary } from './summary.js';
import { winFactsFromRow, type WinRow } from '../results/winrow.js';

const H = Object.fromEntries(HAND_COLUMNS.map((c, i) => [c.name, i])) as Record<string, number>;
const W = Object.fromEntries(WIN_COLUMNS.map((c, i) => [c.name, i])) as Record<string, number>;

/** One rule arm before and after, with the runs' own estimators (the two summaries). */
export interface RescoreArm {
  readonly arm: number;
  readonly before: string;
  readonly after: string;
  /** Per bot: tai per win and points per seat-hand (cluster-ratio-t), before and after. */
  readonly bots: readonly { readonly bot: string; readonly taiPerWin: { readonly before: Estimate; readonly after: Estimate }; readonly pointsPerHand: { readonly before: Estimate; readonly after: Estimate } }[];
  /** Per pattern: wins holding it and per 1,000 wins (wilson-deff), before and after; the table's share of void hands after. */
  readonly patterns: readonly { readonly pattern: PatternId; readonly before: number; readonly after: number; readonly per1000WinsBefore: Estimate; readonly per1000WinsAfter: Estimate }[];
  readonly voidShare: Estimate | null;
}

export interface RescoreSummary {
  readonly from: string;
  readonly rules: string;
  readonly profile: string;
  /** Win rows re-scored. */
  readonly wins: number;
  /** Wins whose tai changed (qualifying or not). */
  readonly changed: number;
  /** Over all arms: wins holding each pattern before, and after among the wins that still qualify. */
  readonly patterns: readonly { pattern: PatternId; before: number; after: number }[];
  readonly arms: readonly RescoreArm[];
  /** Wins that do not qualify under the new profile (below its minimum, or not a win): no longer wins, nobody pays them; the first ones listed. */
  readonly noLongerWins: number;
  /** Hands left with no winner by them: outcome `void`. */
  readonly voidHands: number;
  readonly noLongerWinsList: readonly { deal: number; arm: number; seating: number; hand: number; handKey: number; seat: number; tai: number }[];
  /**
   * The rescored summary's luck-adjusted estimates: `adjusted` (the run recorded the luck features:
   * refitted on the rescored points), `raw` (luck on, but hands.arrow holds no features: its intervals
   * are raw only) or `off` (the run had luck off).
   */
  readonly luck: 'adjusted' | 'raw' | 'off';
}

/** Cursor over the win rows of a file, batch by batch; finished (edited) batches go to `sink`. */
class WinCursor {
  private iter: AsyncGenerator<RecordBatch>;
  private rb: RecordBatch | undefined;
  private batch: Batch | undefined;
  /** Rows of the current batch to leave out (wins that no longer qualify). */
  private dropped: Uint8Array | undefined;
  private i = 0;
  constructor(
    path: string,
    private readonly sink: (b: Batch) => void,
  ) {
    this.iter = readBatches(path);
  }
  /** The next row: its Arrow batch (for reading strings), its editable batch and index. */
  async next(): Promise<{ rb: RecordBatch; batch: Batch; i: number }> {
    while (!this.batch || this.i >= this.batch.rows) {
      if (this.batch) this.flush();
      const n = await this.iter.next();
      if (n.done) throw new UsageError('wins.arrow has fewer win rows than hands.arrow names winners: the files do not belong together');
      this.rb = n.value;
      this.batch = toBatch(n.value, WIN_COLUMNS);
      this.dropped = undefined;
      this.i = 0;
    }
    return { rb: this.rb!, batch: this.batch, i: this.i++ };
  }
  /** Leave row `i` of the current batch out of the output. */
  drop(i: number): void {
    this.dropped ??= new Uint8Array(this.batch!.rows);
    this.dropped[i] = 1;
  }
  private flush(): void {
    const b = this.batch!;
    const dropped = this.dropped;
    this.sink(dropped ? keepRows(b, Array.from(dropped, (d) => 1 - d)) : b);
  }
  /** Flush the last batch; any row left over means the files do not match. */
  async finish(): Promise<void> {
    if (this.batch) {
      if (this.i < this.batch.rows) throw new UsageError('wins.arrow has more win rows than hands.arrow names winners');
      this.flush();
      this.batch = undefined;
    }
    if (!(await this.iter.next()).done) throw new UsageError('wins.arrow has more win rows than hands.arrow names winners');
  }
}

/** The summary of a verified result. */
function readSummary(dir: string): Summary {
  const f = join(dir, 'summary.json');
  return JSON.parse(io(f, 'read', () => readFileSync(f, 'utf8'))) as Summary;
}

/** Each arm before and after, from the two summaries (the runs' own estimators). */
function compareArms(before: Summary, after: Summary): RescoreArm[] {
  return after.arms.map((b) => {
    const a = before.arms.find((x) => x.arm === b.arm);
    const none = noEstimate('cluster-ratio-t');
    return {
      arm: b.arm,
      before: a?.profile ?? '?',
      after: b.profile,
      bots: b.bots.map((bb) => {
        const ab = a?.bots.find((x) => x.bot === bb.bot);
        return { bot: bb.bot, taiPerWin: { before: ab?.taiPerWin ?? none, after: bb.taiPerWin }, pointsPerHand: { before: ab?.pointsPerHand ?? none, after: bb.pointsPerHand } };
      }),
      patterns: b.patterns.map((pb) => {
        const pa = a?.patterns.find((x) => x.pattern === pb.pattern);
        return { pattern: pb.pattern, before: pa?.wins ?? 0, after: pb.wins, per1000WinsBefore: pa?.per1000Wins ?? noEstimate('wilson-deff'), per1000WinsAfter: pb.per1000Wins };
      }),
      voidShare: b.outcomes.void ?? null,
    };
  });
}

function winRowOf(rb: RecordBatch, i: number): WinRow {
  const g = (n: string) => rb.getChild(n)!.get(i) as never;
  return {
    concealed: g('concealed'),
    melds: g('melds'),
    concealed_kongs: g('concealed_kongs'),
    flowers: g('flowers'),
    win_tile: g('win_tile'),
    self_drawn: g('self_drawn'),
    wind_seat: g('wind_seat'),
    wind_round: g('wind_round'),
    last_tile: g('last_tile'),
    after_kong: g('after_kong'),
    robbed_kong: g('robbed_kong'),
    heavenly: g('heavenly'),
  };
}

/**
 * Re-score the complete result in `from` under `rulesSpec` into `outDir`, itself a complete result
 * (staged, manifest last). An `outDir` holding a complete result is replaced only with `force`.
 */
export async function rescoreResults(from: string, rulesSpec: string, outDir: string, listLimit = 20, force = false): Promise<RescoreSummary> {
  if (resolve(outDir) === resolve(from)) throw new UsageError(`--out ${outDir}: must differ from the run being rescored`);
  let profile: Profile;
  try {
    profile = getProfile(rulesSpec);
  } catch (e) {
    throw new UsageError(`--rules ${rulesSpec}: ${(e as Error).message}`);
  }
  const source = await openResult(from);
  // One process per result directory (lock.ts): the rescore holds `outDir` while it writes it.
  return withDirLock(outDir, 'tw16 rescore', () => rescoreInto(from, rulesSpec, profile, outDir, source, listLimit, force));
}

/** `rescoreResults` once `outDir` is locked. */
async function rescoreInto(from: string, rulesSpec: string, profile: Profile, outDir: string, source: Manifest, listLimit: number, force: boolean): Promise<RescoreSummary> {
  const handsPath = join(from, 'hands.arrow');
  const winsPath = join(from, 'wins.arrow');
  if (!force && hasManifest(outDir)) throw new UsageError(`${outDir}: holds a complete result (${MANIFEST}); replace it with --force, or choose another --out`);
  const { metadata: meta, fields } = await readSchema(handsPath);
  // Each file must be this run's: a manifest re-hashed over another run's file lists it as its own.
  for (const [path, m] of [[handsPath, meta], [winsPath, await readMetadata(winsPath)]] as const) {
    if (m.get('tw16.experiment') !== JSON.stringify(source.experiment) || m.get('tw16.version') !== source.version) {
      throw new InputError(`${path}: from another run (its experiment or version differs from ${join(from, MANIFEST)}'s): the result mixes runs`);
    }
  }
  const experiment = JSON.parse(meta.get('tw16.experiment') ?? '{}') as { stakes?: { base: number; perTai: number }; luck?: boolean };
  // The rows keep their columns: the luck features when the file has them (whatever its format's default).
  const handCols = handColumnsIn(fields);
  const luck = experiment.luck === false ? 'off' : handCols === HAND_COLUMNS ? 'adjusted' : 'raw';
  const base = experiment.stakes?.base ?? profile.base;
  const perTai = experiment.stakes?.perTai ?? profile.perTai;
  const armCount = JSON.parse(meta.get('tw16.profiles') ?? '[]').length as number;
  const newMeta = (table: string) =>
    new Map([
      ...meta,
      ['tw16.table', table],
      ['tw16.profiles', JSON.stringify(Array.from({ length: Math.max(1, armCount) }, () => profile))],
      ['tw16.rescore', JSON.stringify({ from: meta.get('tw16.profiles') ? JSON.parse(meta.get('tw16.profiles')!).map((p: Profile) => p.name) : [], rules: profile.name })],
    ]);

  return withStaging(outDir, async (staging) => {
    const handsOut = new ArrowTableWriter(join(staging, 'hands.arrow'), handCols, newMeta('hands'));
    const winsOut = new ArrowTableWriter(join(staging, 'wins.arrow'), WIN_COLUMNS, newMeta('wins'));
    const cursor = new WinCursor(winsPath, (b) => {
      b.columns[W.profile!] = encodeStrings(Array<string>(b.rows).fill(profile.name));
      winsOut.append(b);
    });

    let wins = 0;
    const countBefore = PATTERN_IDS.map(() => 0);
    const countAfter = PATTERN_IDS.map(() => 0);
    let changed = 0;
    let noLonger = 0;
    let voidHands = 0;
    const list: RescoreSummary['noLongerWinsList'][number][] = [];

    for await (const rb of readBatches(handsPath)) {
      const hb = toBatch(rb, handCols);
      const num = (c: string) => hb.columns[H[c]!] as Uint8Array & Int8Array & Int32Array;
      const outcomes = rb.getChild('outcome')!.toArray() as string[];
      const winTiles = rb.getChild('win_tile')!.toArray() as string[];
      let voided = false;
      for (let r = 0; r < hb.rows; r++) {
        const n = num('n_winners')[r]!;
        const outcome = outcomes[r]!;
        if (outcome === 'false_win' || n === 0) continue; // no win rows: nothing to re-score
        const dealer = num('dealer')[r]!;
        const streak = (hb.columns[H.streak!] as Uint16Array)[r]!;
        const discarder = num('discarder')[r]!;
        const winners: { seat: Wind; tai: number; ready: boolean }[] = [];
        const seats: number[] = [];
        const rows: { batch: Batch; i: number }[] = [];
        let selfDraw = false;
        let kind: 'normal' | 'eight_flowers' | 'seven_rob_one' = 'normal';
        for (let k = 0; k < n; k++) {
          const { rb: wrb, batch, i } = await cursor.next();
          const seat = (batch.columns[W.seat!] as Uint8Array)[i]!;
          const oldTai = (batch.columns[W.tai!] as Uint16Array)[i]!;
          const row = winRowOf(wrb, i);
          selfDraw = row.self_drawn;
          if (outcome === 'instant') kind = (batch.columns[W.eight_flowers!] as Uint8Array)[i]! > 0 ? 'eight_flowers' : 'seven_rob_one';
          const s = kind === 'normal' ? scoreHand(winFactsFromRow(row), profile) : scoreFlowerWin(kind, profile);
          wins++;
          if (s.tai !== oldTai) changed++;
          PATTERN_IDS.forEach((id, p) => {
            const col = batch.columns[W[id]!] as Uint8Array;
            if (col[i]! > 0) countBefore[p]!++;
            const v = s.patterns[id] ?? 0;
            if (v > 0 && s.win) countAfter[p]!++;
            col[i] = v;
          });
          if (!s.win) {
            // Not a win under the new rules: play would have gone on. Left out, and counted apart.
            noLonger++;
            cursor.drop(i);
            if (list.length < listLimit) {
              list.push({ deal: num('deal')[r]!, arm: num('arm')[r]!, seating: num('seating')[r]!, hand: (hb.columns[H.hand!] as Uint16Array)[r]!, handKey: (hb.columns[H.hand_key!] as Uint32Array)[r]!, seat, tai: s.tai });
            }
            continue;
          }
          (batch.columns[W.tai!] as Uint16Array)[i] = s.tai;
          winners.push({ seat: (((seat - dealer) % 4) + 4) % 4 as Wind, tai: s.tai, ready: (batch.columns[W.ready!] as Uint8Array)[i]! === 1 });
          seats.push(seat);
          rows.push({ batch, i });
        }
        for (let s = 0; s < 4; s++) (hb.columns[H[`tai_${s}`]!] as Uint16Array)[r] = 0;
        (hb.columns[H.winners!] as Uint8Array)[r] = seats.reduce((m, s) => m | (1 << s), 0);
        (hb.columns[H.n_winners!] as Uint8Array)[r] = seats.length;
        if (winners.length === 0) {
          // No win left: nobody pays (as in a drawn hand); the outcome says why.
          voidHands++;
          voided = true;
          outcomes[r] = 'void';
          winTiles[r] = '';
          (hb.columns[H.discarder!] as Int8Array)[r] = -1;
          for (let s = 0; s < 4; s++) (hb.columns[H[`delta_${s}`]!] as Int32Array)[r] = 0;
          continue;
        }
        const byWind = settle(
          {
            winners,
            selfDraw: selfDraw && kind === 'normal',
            ...(discarder >= 0 ? { discarder: ((((discarder - dealer) % 4) + 4) % 4) as Wind } : {}),
            streak,
            kind,
            base,
            perTai,
          },
          profile,
        );
        for (let s = 0; s < 4; s++) (hb.columns[H[`delta_${s}`]!] as Int32Array)[r] = byWind[(((s - dealer) % 4) + 4) % 4]!;
        winners.forEach((w, k) => {
          (hb.columns[H[`tai_${seats[k]!}`]!] as Uint16Array)[r] = w.tai;
          const { batch, i } = rows[k]!;
          (batch.columns[W.delta!] as Int32Array)[i] = byWind[w.seat]!;
        });
      }
      hb.columns[H.profile!] = encodeStrings(Array<string>(hb.rows).fill(profile.name));
      if (voided) {
        hb.columns[H.outcome!] = encodeStrings(outcomes);
        hb.columns[H.win_tile!] = encodeStrings(winTiles);
      }
      handsOut.append(hb);
    }
    await cursor.finish();
    handsOut.commit();
    winsOut.commit();

    const s = await summarize(join(staging, 'hands.arrow'), join(staging, 'wins.arrow'));
    const summary: RescoreSummary = {
      from,
      rules: rulesSpec,
      profile: profile.name,
      wins,
      changed,
      patterns: PATTERN_IDS.map((pattern, p) => ({ pattern, before: countBefore[p]!, after: countAfter[p]! })),
      arms: compareArms(readSummary(from), s),
      noLongerWins: noLonger,
      voidHands,
      noLongerWinsList: list,
      luck,
    };
    writeAtomic(join(staging, 'rescore.json'), `${JSON.stringify(summary, null, 2)}\n`);
    writeAtomic(join(staging, 'summary.json'), `${JSON.stringify(s, null, 2)}\n`);
    const rules = /\.json$/.test(rulesSpec) ? resolve(rulesSpec) : rulesSpec;
    // The hands were played as in the source: its replay specs replay them; the rules they were re-scored under go apart.
    await commitResult(outDir, staging, { kind: 'rescore', version: VERSION, experiment: source.experiment, replay: source.replay, rescore: { rules, profile: profile.name } });
    return summary;
  });
}
