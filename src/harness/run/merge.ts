/**
 * `tw16 merge`: shards of one run (tw16 run --shard, shard.ts) into the run's result, byte for byte
 * what the run on one machine writes. Every shard is checked before anything is written: its
 * manifest and files (sizes, SHA-256), the same experiment, code version, bots and rule profiles as
 * the others, deal ranges that tile the run exactly once, and with luck each shard's luck sums
 * (`luck.sums`: of its own deals), merged exactly into the summary's luck feed. Then the shards'
 * record batches are streamed in deal order through the run's own writers (ArrowTableWriter
 * re-chunks them into the fixed-size batches) and the run's own `finish` (summary, reports, manifest
 * last): one code path, one batch in memory at a time.
 */
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, UsageError } from '../../core/errors.js';
import { VERSION } from '../../version.js';
import { ArrowTableWriter } from '../io/arrow.js';
import type { BotFingerprint } from '../experiment/botfiles.js';
import type { ColumnSpec } from '../io/columns.js';
import { io, removeTree } from '../io/files.js';
import { readBatches, readMetadata, toBatch } from '../io/read.js';
import { handColumns, WIN_COLUMNS } from '../results/records.js';
import { DECISION_COLUMNS } from '../results/decisions.js';
import { withDirLock } from '../results/lock.js';
import { hasManifest, MANIFEST, openShard, startStaging, type Manifest } from '../results/resultdir.js';
import { finish } from './run.js';
import { experimentHash, readRunState, RUN_STATE } from '../results/runstate.js';
import { rangeText, shardName, shardRange, type DealRange, type ShardRecord } from '../experiment/shard.js';
import { cvKind, LuckFitFeed, seatingsReplay, type Summary } from '../analysis/summary.js';
import { readSums, restoreSums, SHARD_SUMS } from '../analysis/sumsfile.js';

export interface MergeOptions {
  /** The result directory to write (as tw16 run's --out). */
  readonly outDir: string;
  /** The shard directories, in any order. */
  readonly shardDirs: readonly string[];
  /** Replace a complete result in `outDir` (once the merge completes; until then it stays intact). */
  readonly force?: boolean;
  /** Also write report.md and report.html (as tw16 run does). */
  readonly report?: boolean;
  /** Abort to stop: nothing is written. */
  readonly signal?: AbortSignal;
}

export interface MergeOutcome {
  readonly status: 'complete' | 'interrupted';
  readonly shards: number;
  readonly deals: number;
  readonly hands: number;
  readonly wins: number;
  readonly seconds: number;
  readonly summary?: Summary;
  /** The files of the result, manifest.json last. */
  readonly files?: readonly string[];
}

type ShardManifest = Manifest & { shard: ShardRecord; rows: { hands: number; wins: number; decisions?: number } };

interface OpenedShard {
  readonly dir: string;
  readonly manifest: ShardManifest;
  readonly metadata: { readonly hands: Map<string, string>; readonly wins: Map<string, string>; readonly decisions?: Map<string, string> };
}

/** `shard 2/4 (deals 5,000–9,999)`. */
const describe = (s: ShardRecord): string => `shard ${shardName(s)} (${rangeText(s)})`;

/** A directory given as a shard that holds no complete shard: why, in one line. */
function notAShard(dir: string, err: unknown): Error {
  if (!existsSync(dir)) return new InputError(`${dir}: no such shard directory`);
  if (!hasManifest(dir) && existsSync(join(dir, RUN_STATE))) {
    let progress = '';
    try {
      const st = readRunState(dir);
      const s = st.shard;
      if (s) progress = ` of ${describe(s)}: ${(st.checkpoint.dealsDone - s.first).toLocaleString('en-US')} of ${(s.end - s.first).toLocaleString('en-US')} deals done; finish it with tw16 run … --shard ${shardName(s)} --resume`;
    } catch {
      // the state's own problem is for the resume to report
    }
    return new InputError(`${dir}: incomplete: an unfinished run (${RUN_STATE}, no ${MANIFEST})${progress}`);
  }
  return err instanceof Error ? err : new InputError(String(err));
}

/** What a bot is made of, whatever the paths of its files on the machine that ran the shard. */
function botsDigest(bots: readonly BotFingerprint[] | undefined): string {
  return JSON.stringify((bots ?? []).map((b) => [b.name, Object.values(b.files).sort()]));
}

/** The value most shards hold (ties: the first), so that the odd one out is the one named. */
function majority<T>(shards: readonly OpenedShard[], key: (s: OpenedShard) => T): T {
  const counts = new Map<T, number>();
  for (const s of shards) counts.set(key(s), (counts.get(key(s)) ?? 0) + 1);
  let best = key(shards[0]!);
  for (const [k, n] of counts) if (n > counts.get(best)!) best = k;
  return best;
}

const sameMap = (a: Map<string, string>, b: Map<string, string>): boolean => JSON.stringify([...a]) === JSON.stringify([...b]);

/** The metadata key two files differ in, for the message. */
function firstDifference(a: Map<string, string>, b: Map<string, string>): string {
  for (const k of new Set([...a.keys(), ...b.keys()])) if (a.get(k) !== b.get(k)) return k;
  return 'key order';
}

/** Every shard belongs to the same run as most of them; else an InputError naming the foreign one. */
function checkSameRun(shards: readonly OpenedShard[]): void {
  const version = majority(shards, (s) => s.manifest.version);
  const exp = majority(shards, (s) => s.manifest.experimentSha256!);
  const bots = majority(shards, (s) => botsDigest(s.manifest.bots));
  const ref = shards.find((s) => s.manifest.experimentSha256 === exp && s.manifest.version === version)!;
  for (const s of shards) {
    const m = s.manifest;
    const others = shards.length > 2 ? 'the other shards' : 'the other shard';
    if (m.version !== version) throw new InputError(`${s.dir}: foreign shard: written by tw16 ${m.version}, ${others} by tw16 ${version}`);
    if (experimentHash(m.experiment) !== m.experimentSha256) throw new InputError(`${join(s.dir, MANIFEST)}: its experiment does not hash to its experimentSha256: edited or corrupt`);
    if (m.experimentSha256 !== exp) {
      const was = (ref.manifest.experiment ?? {}) as Record<string, unknown>;
      const now = (m.experiment ?? {}) as Record<string, unknown>;
      const fields = Object.keys({ ...was, ...now }).filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k]));
      throw new InputError(`${s.dir}: foreign shard: a shard of another experiment (${fields.join(', ') || 'contents'} differ${fields.length === 1 ? 's' : ''} from ${others}')`);
    }
    if (botsDigest(m.bots) !== bots) throw new InputError(`${s.dir}: foreign shard: its bots' code differs from ${others}' (a bot file changed between shards)`);
    for (const table of ['hands', 'wins', 'decisions'] as const) {
      if (!s.metadata[table] || !ref.metadata[table]) continue; // decisions: the same experiment records it in every shard or in none
      if (!sameMap(s.metadata[table]!, ref.metadata[table]!)) {
        throw new InputError(`${join(s.dir, `${table}.arrow`)}: foreign shard: its ${firstDifference(s.metadata[table]!, ref.metadata[table]!)} differs from ${others}' (a rule file changed between shards?)`);
      }
    }
  }
}

/** The shards of `count` exactly covering `gap`, as `shard 2/4` or `shards 2/4–3/4`, if any count seen does. */
function gapName(gap: DealRange, deals: number, counts: readonly number[]): string | undefined {
  for (const count of counts) {
    let from = 0;
    let to = 0;
    for (let i = 1; i <= count; i++) {
      const r = shardRange(deals, { index: i, count });
      if (r.first === gap.first) from = i;
      if (r.end === gap.end) to = i;
    }
    if (from > 0 && to >= from) return from === to ? `shard ${from}/${count}` : `shards ${from}/${count}–${to}/${count}`;
  }
  return undefined;
}

/** The shards sorted by range, which must tile deals [0, deals) exactly once; else an InputError naming the shard. */
function tile(shards: readonly OpenedShard[], deals: number): OpenedShard[] {
  const sorted = [...shards].sort((a, b) => a.manifest.shard.first - b.manifest.shard.first || a.manifest.shard.end - b.manifest.shard.end);
  const counts = [...new Set(sorted.map((s) => s.manifest.shard.count))];
  const missing = (gap: DealRange): InputError => {
    const name = gapName(gap, deals, counts);
    return new InputError(`missing ${name ? `${name} (${rangeText(gap)})` : rangeText(gap)}: none of the ${shards.length} shard directories given holds ${gap.end - gap.first === 1 ? 'it' : 'them'}; run ${name ? `tw16 run … --shard ${name.replace(/^shards? /, '').split('–')[0]}` : 'the shard'} and merge again`);
  };
  let end = 0;
  let prev: OpenedShard | undefined;
  for (const s of sorted) {
    const r = s.manifest.shard;
    if (r.end > deals) throw new InputError(`${s.dir}: ${describe(r)} ends beyond the run's ${deals.toLocaleString('en-US')} deals`);
    if (prev && r.first === prev.manifest.shard.first && r.end === prev.manifest.shard.end) {
      throw new InputError(`${s.dir}: doubled: ${prev.dir} holds the same ${describe(r)}; give each shard once`);
    }
    if (prev && r.first < end) {
      throw new InputError(`${s.dir}: overlapping: its ${describe(r)} and ${prev.dir}'s ${describe(prev.manifest.shard)} both hold ${rangeText({ first: r.first, end: Math.min(end, r.end) })}; give shards of one split`);
    }
    if (r.first > end) throw missing({ first: end, end: r.first });
    end = r.end;
    prev = s;
  }
  if (end < deals) throw missing({ first: end, end: deals });
  return sorted;
}

/** Open and check every shard, then the set: one run, tiled exactly once. Nothing is written. */
async function openShards(dirs: readonly string[]): Promise<{ shards: OpenedShard[]; deals: number; luck: LuckFitFeed | undefined }> {
  if (dirs.length === 0) throw new UsageError('tw16 merge: no shard directories given');
  const seen = new Map<string, string>();
  const shards: OpenedShard[] = [];
  for (const dir of dirs) {
    let manifest: ShardManifest;
    try {
      manifest = await openShard(dir);
    } catch (err) {
      throw notAShard(dir, err);
    }
    const real = realpathSync(dir);
    const twice = seen.get(real);
    if (twice !== undefined) throw new InputError(`${dir}: doubled: given twice (also as ${twice})`);
    seen.set(real, dir);
    const records = (manifest.experiment as { record?: unknown }).record;
    const decisions = Array.isArray(records) && records.includes('decisions');
    if (decisions && !manifest.files.some((f) => f.name === 'decisions.arrow')) throw new InputError(`${join(dir, MANIFEST)}: does not list decisions.arrow, which its experiment records`);
    const metadata = { hands: await readMetadata(join(dir, 'hands.arrow')), wins: await readMetadata(join(dir, 'wins.arrow')), ...(decisions ? { decisions: await readMetadata(join(dir, 'decisions.arrow')) } : {}) };
    shards.push({ dir, manifest, metadata });
  }
  checkSameRun(shards);
  // The summary and reports are this tw16's code: the same version as the shards', or the bytes could differ.
  const version = shards[0]!.manifest.version;
  if (version !== VERSION) throw new InputError(`${shards[0]!.dir}: written by tw16 ${version}, this is tw16 ${VERSION}: merge with the version that ran the shards`);
  const deals = (shards[0]!.manifest.experiment as { deals?: unknown }).deals;
  if (!Number.isSafeInteger(deals)) throw new InputError(`${join(shards[0]!.dir, MANIFEST)}: its experiment has no number of deals`);
  const sorted = tile(shards, deals as number);
  return { shards: sorted, deals: deals as number, luck: luckSums(sorted) };
}

/**
 * With luck, the run's luck sums: every shard's `luck.sums` (listed in its manifest, verified with
 * its files), checked to hold its own deals, merged exactly, so the summary is the single run's
 * without reading the rows' luck columns back. Without luck, undefined.
 */
function luckSums(shards: readonly OpenedShard[]): LuckFitFeed | undefined {
  const first = shards[0]!;
  const e = first.manifest.experiment as { luck?: unknown; seating?: string };
  if (e.luck === false) return undefined;
  const league = first.metadata.hands.has('tw16.league');
  const feed = new LuckFitFeed(handColumns(e), seatingsReplay(e.seating), [], !league && cvKind(e.seating));
  for (const s of shards) {
    const rec = s.manifest.files.find((f) => f.name === SHARD_SUMS);
    if (!rec) throw new InputError(`${join(s.dir, MANIFEST)}: does not list ${SHARD_SUMS}, the luck sums of its deals, which its experiment makes (luck on)`);
    const path = join(s.dir, SHARD_SUMS);
    restoreSums(feed, readSums(path, rec, s.manifest.shard, MANIFEST), path);
  }
  return feed;
}

/**
 * Stream one table of every shard, in deal order, into `out`; the rows must match each shard's
 * manifest and lie in its range, in order.
 */
async function copyTable(shards: readonly OpenedShard[], table: 'hands' | 'wins' | 'decisions', specs: readonly ColumnSpec[], out: ArrowTableWriter, stopped: () => boolean): Promise<number> {
  let total = 0;
  for (const s of shards) {
    const path = join(s.dir, `${table}.arrow`);
    const r = s.manifest.shard;
    let rows = 0;
    let last = r.first;
    for await (const rb of readBatches(path)) {
      if (stopped()) return total;
      const batch = toBatch(rb, specs);
      const deal = batch.columns[specs.findIndex((c) => c.name === 'deal')] as Uint32Array;
      for (let i = 0; i < batch.rows; i++) {
        const d = deal[i]!;
        if (d < last || d >= r.end) throw new InputError(`${path}: deal ${d} out of place in ${describe(r)}: corrupt`);
        last = d;
      }
      out.append(batch);
      rows += batch.rows;
    }
    const want = s.manifest.rows[table] ?? 0;
    if (rows !== want) throw new InputError(`${path}: ${rows.toLocaleString('en-US')} rows, ${MANIFEST} records ${want.toLocaleString('en-US')}: corrupt`);
    total += rows;
  }
  return total;
}

/** Merge shards into a complete result in `outDir`. Bad or mismatched shards → InputError before anything on disk changes. */
export async function mergeShards(opts: MergeOptions): Promise<MergeOutcome> {
  const t0 = performance.now();
  const dir = opts.outDir;
  const { shards, deals, luck } = await openShards(opts.shardDirs);
  if (existsSync(dir)) {
    const real = realpathSync(dir);
    const inside = shards.find((s) => realpathSync(s.dir) === real);
    if (inside) throw new UsageError(`${dir}: is one of the shards; merge into another directory (e.g. the shards' parent)`);
  }
  // One process per result directory (lock.ts): a run or another merge into `dir` refuses this one.
  return withDirLock(dir, 'tw16 merge', () => mergeInto(opts, shards, deals, luck, t0));
}

/** `mergeShards` once `dir` is locked: what it holds is checked, then the shards are written. */
async function mergeInto(opts: MergeOptions, shards: Awaited<ReturnType<typeof openShards>>['shards'], deals: number, luck: LuckFitFeed | undefined, t0: number): Promise<MergeOutcome> {
  const dir = opts.outDir;
  if (!opts.force) {
    if (existsSync(join(dir, RUN_STATE))) throw new UsageError(`${dir}: holds an unfinished run (${RUN_STATE}); merge into another directory, or discard that run with --force`);
    if (hasManifest(dir)) throw new UsageError(`${dir}: holds a complete result (${MANIFEST}); replace it with --force, or choose another directory`);
  }
  const staging = startStaging(dir);
  const first = shards[0]!;
  let handsOut: ArrowTableWriter | undefined;
  let winsOut: ArrowTableWriter | undefined;
  let decisionsOut: ArrowTableWriter | undefined;
  const stopped = (): boolean => opts.signal?.aborted === true;
  const seconds = (): number => (performance.now() - t0) / 1000;
  try {
    // The run's own writers, with the run's own schema metadata (identical in every shard, checked).
    // hands.arrow holds the luck features only when the run had luck on (the same experiment in every shard, checked).
    const handCols = handColumns(first.manifest.experiment as { luck?: unknown });
    handsOut = new ArrowTableWriter(join(staging, 'hands.arrow'), handCols, first.metadata.hands);
    winsOut = new ArrowTableWriter(join(staging, 'wins.arrow'), WIN_COLUMNS, first.metadata.wins);
    const hands = await copyTable(shards, 'hands', handCols, handsOut, stopped);
    const wins = await copyTable(shards, 'wins', WIN_COLUMNS, winsOut, stopped);
    if (first.metadata.decisions) {
      decisionsOut = new ArrowTableWriter(join(staging, 'decisions.arrow'), DECISION_COLUMNS, first.metadata.decisions);
      await copyTable(shards, 'decisions', DECISION_COLUMNS, decisionsOut, stopped);
    }
    const counts = { shards: shards.length, deals, hands, wins };
    if (stopped()) {
      handsOut.release();
      winsOut.release();
      decisionsOut?.release();
      removeTree(staging);
      return { status: 'interrupted', ...counts, seconds: seconds() };
    }
    handsOut.commit();
    winsOut.commit();
    decisionsOut?.commit();
    const m = first.manifest;
    const finished = await finish(dir, staging, opts.report !== false, stopped, { kind: 'run', version: m.version, experiment: m.experiment, replay: m.replay }, { luck });
    if (!finished) {
      removeTree(staging);
      return { status: 'interrupted', ...counts, seconds: seconds() };
    }
    return { status: 'complete', ...counts, seconds: seconds(), ...finished };
  } catch (err) {
    for (const w of [handsOut, winsOut, decisionsOut]) {
      try {
        w?.release();
      } catch {
        // the original error is the one to report
      }
    }
    try {
      removeTree(staging);
    } catch {
      // the original error is the one to report
    }
    throw err;
  }
}
