/**
 * A result directory is complete or absent (shared/DESIGN.md). Its files are written into a
 * staging directory inside it, flushed to the disk, then renamed into place; `manifest.json`,
 * listing every file with its size and SHA-256, the experiment and the code version, is
 * written last. A directory without a manifest is not a result; one whose files differ from
 * their manifest is corrupt or mixed. Readers (rescore, diff, report) call `openResult` first.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../../core/errors.js';
import type { BotFingerprint } from '../experiment/botfiles.js';
import type { ReplaySpecs } from '../experiment/experiment.js';
import { fsyncDir, hashFile, io, readJsonFile, removeFile, removeTree, renameFile, writeAtomic } from '../io/files.js';
import { rangeText, shardName, type ShardRecord } from '../experiment/shard.js';

/** The manifest's file name, and the staging directory's. */
export const MANIFEST = 'manifest.json';
export const STAGING = '.tw16-staging';
/**
 * The manifest's format. 2: hands.arrow of a run with luck on may hold no luck feature columns
 * (records.ts `recordsLuckFeatures`); in 1 it held them whenever luck was on. Both are read.
 */
const FORMAT = 'tw16-result-2';
const FORMATS_READ: readonly string[] = ['tw16-result-1', FORMAT];

/** One file of a result. */
export interface ManifestFile {
  readonly name: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** `manifest.json`. */
export interface Manifest {
  readonly format: string;
  /** `run` (tw16 run, tw16 merge), `rescore` (tw16 rescore) or `shard` (tw16 run --shard: one deal range of a run, for tw16 merge). */
  readonly kind: 'run' | 'rescore' | 'shard';
  /** The tw16 version that wrote the files. */
  readonly version: string;
  /** The experiment as run (as in the Arrow files' `tw16.experiment`): the whole run's, in a shard too. */
  readonly experiment: unknown;
  /** A shard: the SHA-256 of the experiment's JSON (runstate.ts `experimentHash`). */
  readonly experimentSha256?: string;
  /** A shard: which one, and its deals [first, end). */
  readonly shard?: ShardRecord;
  /** A shard: the rows of hands.arrow and wins.arrow (and decisions.arrow, when recorded). */
  readonly rows?: { readonly hands: number; readonly wins: number; readonly decisions?: number };
  /** A shard: the bots' code it was played with (botfiles.ts), so that merge can refuse a mix. */
  readonly bots?: readonly BotFingerprint[];
  /**
   * How to replay a hand of the result as it was played (`tw16 replay` arguments per arm and per
   * bot). A rescore's hands were played as in the run it rescored, so this is that run's.
   */
  readonly replay: ReplaySpecs;
  /** A rescore: the rules its wins were scored under (a profile name, an absolute file path or inline JSON) and that profile's name. */
  readonly rescore?: { readonly rules: string; readonly profile: string };
  readonly files: readonly ManifestFile[];
}

/** Files every result holds, and every shard. */
const REQUIRED = ['hands.arrow', 'wins.arrow', 'summary.json'];
const SHARD_REQUIRED = ['hands.arrow', 'wins.arrow'];
/** Files derived for people, which `tw16 report` rewrites. */
export const REPORT_FILES: readonly string[] = ['report.md', 'report.html'];

/** Does `dir` hold a result (a manifest, whatever its state)? */
export function hasManifest(dir: string): boolean {
  return existsSync(join(dir, MANIFEST));
}

/** A fresh, empty staging directory in `dir` (any earlier one is discarded). */
export function startStaging(dir: string): string {
  const staging = join(dir, STAGING);
  removeTree(staging);
  io(staging, 'create directory', () => mkdirSync(staging));
  return staging;
}

/**
 * Run `write` with a fresh staging directory in `dir`; if it fails, the staging directory is
 * removed (best effort: the failure is what gets reported) and nothing else in `dir` changed.
 */
export async function withStaging<T>(dir: string, write: (staging: string) => Promise<T>): Promise<T> {
  const staging = startStaging(dir);
  try {
    return await write(staging);
  } catch (err) {
    try {
      removeTree(staging);
    } catch {
      // keep the original error
    }
    throw err;
  }
}

/** Read and parse a manifest; an unreadable or malformed one is an InputError naming it. */
export function readManifest(dir: string): Manifest {
  const file = join(dir, MANIFEST);
  const m = readJsonFile(file, {
    missing: () =>
      existsSync(dir)
        ? `${dir}: not a complete tw16 result: no ${MANIFEST} (a finished run writes it last, after hands.arrow, wins.arrow, summary.json and its reports; this one is unfinished, interrupted, failed or not a result)`
        : `${dir}: no such directory`,
    invalid: 'corrupt, not valid JSON',
  }) as Manifest;
  const ok =
    FORMATS_READ.includes(m?.format) &&
    Array.isArray(m.files) &&
    m.files.every((f) => typeof f?.name === 'string' && !f.name.includes('/') && Number.isSafeInteger(f.bytes) && /^[0-9a-f]{64}$/.test(String(f.sha256))) &&
    typeof m.replay === 'object' &&
    Array.isArray(m.replay?.rules);
  if (!ok) throw new InputError(`${file}: not a tw16 result manifest (format ${FORMATS_READ.map((f) => `"${f}"`).join(' or ')} with files, sizes and hashes expected)`);
  return m;
}

/**
 * Check that `dir` holds a complete result: its manifest, and every file the manifest lists with
 * the recorded size and SHA-256 (the reports too, unless they are about to be rewritten). Anything
 * else is an InputError naming the directory or file; so is a shard, which is only part of a run.
 */
export async function openResult(dir: string, opts: { rewritingReports?: boolean } = {}): Promise<Manifest> {
  const m = readManifest(dir);
  if (m.kind === 'shard') {
    const s = m.shard;
    throw new InputError(`${dir}: a shard of a run${s ? ` (${shardName(s)}, ${rangeText(s)})` : ''}, not a whole result: merge the shards first (tw16 merge OUT SHARD_DIR…)`);
  }
  for (const name of REQUIRED) if (!m.files.some((f) => f.name === name)) throw new InputError(`${join(dir, MANIFEST)}: does not list ${name}`);
  await verifyFiles(dir, m, opts.rewritingReports === true);
  return m;
}

/**
 * Check that `dir` holds a complete shard (tw16 run --shard): a shard manifest with its range and
 * row counts, and every file it lists with the recorded size and SHA-256. Anything else is an
 * InputError naming the directory or file.
 */
export async function openShard(dir: string): Promise<Manifest & { shard: ShardRecord; rows: { hands: number; wins: number; decisions?: number } }> {
  const m = readManifest(dir);
  if (m.kind !== 'shard') throw new InputError(`${dir}: not a shard: a complete ${m.kind} result (tw16 run --shard writes shards)`);
  const s = m.shard;
  const whole = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;
  const ok =
    typeof m.experimentSha256 === 'string' &&
    s !== undefined &&
    [s.index, s.count, s.first, s.end].every(whole) &&
    s.index >= 1 &&
    s.index <= s.count &&
    s.first < s.end &&
    m.rows !== undefined &&
    whole(m.rows.hands) &&
    whole(m.rows.wins);
  if (!ok) throw new InputError(`${join(dir, MANIFEST)}: a shard manifest without a valid experimentSha256, shard (index, count, first, end) and rows`);
  for (const name of SHARD_REQUIRED) if (!m.files.some((f) => f.name === name)) throw new InputError(`${join(dir, MANIFEST)}: does not list ${name}`);
  await verifyFiles(dir, m, false);
  return m as Manifest & { shard: ShardRecord; rows: { hands: number; wins: number; decisions?: number } };
}

/** Every file `m` lists is in `dir` with its recorded size and SHA-256 (the reports skipped when `skipReports`). */
async function verifyFiles(dir: string, m: Manifest, skipReports: boolean): Promise<void> {
  for (const f of m.files) {
    if (skipReports && REPORT_FILES.includes(f.name)) continue;
    const hint = REPORT_FILES.includes(f.name) ? ` (tw16 report ${dir} rewrites the reports)` : '';
    const path = join(dir, f.name);
    if (!existsSync(path)) throw new InputError(`${dir}: incomplete: ${f.name}, listed in ${MANIFEST}, is missing`);
    const size = io(path, 'read', () => statSync(path).size);
    if (size !== f.bytes) throw new InputError(`${path}: ${size.toLocaleString('en-US')} bytes, ${MANIFEST} records ${f.bytes.toLocaleString('en-US')}: truncated, corrupt or from another run${hint}`);
    const { sha256 } = await hashFile(path);
    if (sha256 !== f.sha256) throw new InputError(`${path}: contents differ from ${MANIFEST} (SHA-256 ${sha256.slice(0, 12)}…, recorded ${f.sha256.slice(0, 12)}…): corrupt or from another run${hint}`);
  }
}

/**
 * Move every file of `staging` into `dir` and write the manifest last.
 * - A new result (`keep` empty): a previous result's manifest is removed first and its other files
 *   after, so a crash before the new manifest leaves no manifest: not a result, never a mix.
 * - An update (`keep`: the files of the result in `dir` that stay, verified): the staged files
 *   replace theirs, then the manifest is replaced; a crash in between leaves files that differ
 *   from the manifest, which readers refuse and the update (tw16 report) repairs.
 */
export async function commitResult(dir: string, staging: string, info: Omit<Manifest, 'format' | 'files'>, keep: readonly ManifestFile[] = []): Promise<Manifest> {
  const names = io(staging, 'list', () => readdirSync(staging, { withFileTypes: true }))
    .filter((d) => d.isFile() && !d.name.endsWith('.tmp'))
    .map((d) => d.name)
    .sort();
  const staged: ManifestFile[] = [];
  for (const name of names) {
    const { sha256, bytes } = await hashFile(join(staging, name));
    staged.push({ name, bytes, sha256 });
  }
  fsyncDir(staging);

  let previous: readonly string[] = [];
  if (keep.length === 0 && hasManifest(dir)) {
    try {
      previous = readManifest(dir).files.map((f) => f.name);
    } catch {
      previous = []; // a corrupt manifest names nothing worth removing
    }
    removeFile(join(dir, MANIFEST));
    fsyncDir(dir);
  }
  const files = [...keep.filter((k) => !names.includes(k.name)), ...staged].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const old of previous) if (!files.some((f) => f.name === old)) removeFile(join(dir, old));
  for (const name of names) renameFile(join(staging, name), join(dir, name));
  fsyncDir(dir);
  const manifest: Manifest = { format: FORMAT, ...info, files };
  writeAtomic(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  removeTree(staging);
  return manifest;
}
