/**
 * A LuckFitFeed's sums on disk (summary.ts `LuckTransfer`): the luck fit's and the adjusted
 * estimates' exact sums of some deals, so that a resume (run.ts checkpoints) and a merge of shards
 * (a shard's `luck.sums`) continue from them instead of reading the hands' luck columns back.
 *
 * Layout (little-endian): the magic `TW16SUMS`, a u32 format version, a u32 header length and the
 * header (JSON: the deals the sums hold, then each fold's and cv cell's identity, deal count and
 * number of sums); then every sum of every entry, in the header's order, as a LEB128 varint of
 * 2|I| + (I < 0), I being the sum in units of its grid (ExactSums: hi·2^32 + lo); last, the
 * SHA-256 of everything before it. A sum's integer is written, not its hi/lo split, and the
 * entries are sorted, so equal sums are equal bytes however they were grouped: a shard's file is
 * a pure function of (experiment, seed, range, version). Most sums are zero (one byte) or a few
 * bytes: the default experiment's 978,000 sums (100 deals) took 15.6 MB as two doubles each, 3.6 MB here.
 *
 * Decoding yields a LuckTransfer, which `LuckFitFeed.merge` adds with ExactSums' own arithmetic:
 * the sums restored are the same bits as those written.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { InputError, IoError, isSystemError } from '../../core/errors.js';
import type { DealRange } from '../experiment/shard.js';
import type { FoldTransfer } from './luckfit.js';
import { FOLD_SUMS, LUCK_FOLDS } from './luckfit.js';
import type { CvTransfer } from './cvsums.js';
import type { LuckFitFeed, LuckTransfer } from './summary.js';

/** A shard's luck sums (tw16 run --shard), listed in its manifest, for tw16 merge. */
export const SHARD_SUMS = 'luck.sums';

const MAGIC = 'TW16SUMS';
const VERSION = 1;
const W32 = 2 ** 32;
/** Bytes of the longest varint: 2|I| + 1 < 2^86 (ExactSums holds |hi| < 2^53). */
const MAX_VARINT = 13;

/** The deals `[first, end)` in a message. */
export function dealsText(r: DealRange): string {
  return r.end <= r.first ? 'no deals' : `deals ${r.first.toLocaleString('en-US')}–${(r.end - 1).toLocaleString('en-US')}`;
}

interface Header {
  readonly deals: [number, number];
  /** Fit folds: [seg, key, fold, n, len]. */
  readonly fit: [number, string, number, number, number][];
  /** Cv cells: [arm, names, seg, fold, n, len]. */
  readonly cv: [number, string[], number, number, number, number][];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The file's bytes for the sums `t` of deals `deals`. */
export function encodeSums(t: LuckTransfer, deals: DealRange): Uint8Array {
  const fit = t.fit.flatMap(({ seg, folds }) => folds.map((f) => ({ seg, f }))).sort((p, q) => p.seg - q.seg || cmp(p.f.key, q.f.key) || p.f.fold - q.f.fold);
  const cv = [...t.cv].sort((p, q) => p.seg - q.seg || p.fold - q.fold || p.arm - q.arm || cmp(p.names.join('\u0000'), q.names.join('\u0000')));
  const header: Header = {
    deals: [deals.first, deals.end],
    fit: fit.map(({ seg, f }) => [seg, f.key, f.fold, f.n, f.hi.length]),
    cv: cv.map((c) => [c.arm, [...c.names], c.seg, c.fold, c.n, c.hi.length]),
  };
  const head = Buffer.from(JSON.stringify(header), 'utf8');
  const pre = Buffer.alloc(MAGIC.length + 8);
  pre.write(MAGIC, 0, 'latin1');
  pre.writeUInt32LE(VERSION, MAGIC.length);
  pre.writeUInt32LE(head.length, MAGIC.length + 4);
  // The sums through one reused scratch buffer, copied out as it fills: bounding a whole file at
  // MAX_VARINT bytes a sum would touch several times the file's memory.
  const parts: Uint8Array[] = [pre, head];
  let p = 0;
  for (const a of [...fit.map((e) => e.f), ...cv]) {
    const need = a.hi.length * MAX_VARINT;
    if (p + need > scratch.length) {
      parts.push(scratch.slice(0, p));
      p = 0;
      if (need > scratch.length) scratch = new Uint8Array(need);
    }
    p = putSums(scratch, p, a.hi, a.lo);
  }
  parts.push(scratch.slice(0, p));
  const hash = createHash('sha256');
  for (const x of parts) hash.update(x);
  parts.push(hash.digest());
  return Buffer.concat(parts);
}

let scratch = new Uint8Array(1 << 22);

/**
 * Write each sum I = hi[i]·2^32 + lo[i] (integers, |hi| < 2^53) at `p` as the varint of
 * V = 2|I| + sign; returns the end. V is taken apart as c·2^56 + b·2^28 + a (a, b < 2^28), so the
 * 7-bit groups come from small integers (about 10× faster than dividing V as a double); beyond
 * |hi| < 2^45 (sums past 2^77 grid units) the same groups by double arithmetic (`putBig`).
 */
function putSums(out: Uint8Array, p: number, hi: Float64Array, lo: Float64Array): number {
  for (let i = 0; i < hi.length; i++) {
    const h0 = hi[i]!;
    const l0 = lo[i]!;
    if (h0 === 0 && l0 === 0) {
      out[p++] = 0;
      continue;
    }
    const t = Math.floor(l0 / W32);
    let h = h0 + t;
    let l = l0 - t * W32; // I = h·2^32 + l, 0 ≤ l < 2^32
    let s = 0;
    if (h < 0) {
      s = 1; // |I| = −h·2^32 − l
      if (l > 0) {
        h = -h - 1;
        l = W32 - l;
      } else h = -h;
    }
    // V = h·2^33 + (2l + s)
    if (h >= 2 ** 45) {
      if (!(h < 2 ** 53)) throw new Error('sums file: a sum beyond the range ExactSums holds');
      p = putBig(out, p, h, 2 * l + s);
      continue;
    }
    const L = 2 * l + s; // < 2^33
    const a = L % 2 ** 28;
    const rest = (L - a) / 2 ** 28 + h * 32; // V = rest·2^28 + a, rest < 2^50
    if (rest === 0) {
      p = putSmall(out, p, a);
      continue;
    }
    p = putGroups(out, p, a);
    const b = rest % 2 ** 28;
    const c = (rest - b) / 2 ** 28; // < 2^22
    if (c === 0) {
      p = putSmall(out, p, b);
      continue;
    }
    p = putGroups(out, p, b);
    p = putSmall(out, p, c);
  }
  return p;
}

/** The last groups of a varint: x < 2^31. */
function putSmall(out: Uint8Array, p: number, x: number): number {
  while (x >= 128) {
    out[p++] = (x & 127) | 128;
    x >>>= 7;
  }
  out[p++] = x;
  return p;
}

/** Four groups of 7 bits (x < 2^28), more to follow. */
function putGroups(out: Uint8Array, p: number, x: number): number {
  out[p++] = (x & 127) | 128;
  out[p++] = ((x >>> 7) & 127) | 128;
  out[p++] = ((x >>> 14) & 127) | 128;
  out[p++] = ((x >>> 21) & 127) | 128;
  return p;
}

/** V = H·2^33 + L (L < 2^33, H < 2^53) by double arithmetic, every step exact. */
function putBig(out: Uint8Array, p: number, H: number, L: number): number {
  while (H > 0 || L >= 128) {
    out[p++] = (L % 128) | 128;
    L = Math.floor(L / 128) + (H % 128) * 2 ** 26;
    H = Math.floor(H / 128);
  }
  out[p++] = L;
  return p;
}

/** The sums a file holds, and the deals they are of. */
export interface SumsFile {
  readonly deals: DealRange;
  readonly sums: LuckTransfer;
}

/**
 * Read the bytes of a sums file; anything but a whole, intact file of this format is an
 * InputError naming `path` and what is wrong.
 */
export function decodeSums(bytes: Uint8Array, path: string): SumsFile {
  const bad = (why: string): InputError => new InputError(`${path}: ${why}`);
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < MAGIC.length + 8 + 32 || buf.toString('latin1', 0, MAGIC.length) !== MAGIC) throw bad(`not a tw16 luck sums file (no "${MAGIC}" header)`);
  const body = buf.length - 32;
  if (!createHash('sha256').update(buf.subarray(0, body)).digest().equals(buf.subarray(body))) throw bad('corrupt: truncated or modified (its contents no longer match the SHA-256 it ends with)');
  const version = buf.readUInt32LE(MAGIC.length);
  if (version !== VERSION) throw bad(`a luck sums file of format ${version}, this tw16 reads format ${VERSION}`);
  const headLength = buf.readUInt32LE(MAGIC.length + 4);
  let p = MAGIC.length + 8 + headLength;
  if (p > body) throw bad('corrupt: its header runs past its end');
  let header: Header;
  try {
    header = JSON.parse(buf.toString('utf8', MAGIC.length + 8, p)) as Header;
  } catch {
    throw bad('corrupt: its header is not valid JSON');
  }
  if (!validHeader(header)) throw bad('corrupt: its header does not describe luck sums');
  const take = (len: number): { hi: Float64Array; lo: Float64Array } => {
    const hi = new Float64Array(len);
    const lo = new Float64Array(len);
    p = getSums(buf, p, body, hi, lo);
    if (p < 0) throw bad('corrupt: a sum is cut off or out of range');
    return { hi, lo };
  };
  const fit = new Map<number, FoldTransfer[]>();
  for (const [seg, key, fold, n, len] of header.fit) {
    let folds = fit.get(seg);
    if (!folds) fit.set(seg, (folds = []));
    folds.push({ key, fold, n, ...take(len) });
  }
  const cv: CvTransfer[] = header.cv.map(([arm, names, seg, fold, n, len]) => ({ arm, names, seg, fold, n, ...take(len) }));
  if (p !== body) throw bad('corrupt: bytes after its last sum');
  return { deals: { first: header.deals[0], end: header.deals[1] }, sums: { fit: [...fit].map(([seg, folds]) => ({ seg, folds })), cv } };
}

/**
 * Read `hi.length` varints from `buf` at `p` (before `end`) into canonical hi/lo (both of the sum's
 * sign, |lo| < 2^32); the position after them, or −1 for a varint cut off or beyond ExactSums' range.
 * V = c·2^56 + b·2^28 + a, from groups 0–3, 4–7 and 8 on.
 */
function getSums(buf: Uint8Array, p: number, end: number, hi: Float64Array, lo: Float64Array): number {
  for (let i = 0; i < hi.length; i++) {
    let a = 0;
    let b = 0;
    let c = 0;
    for (let k = 0; ; k++) {
      if (p >= end || k >= MAX_VARINT) return -1;
      const g = buf[p++]!;
      const v = g & 127;
      if (k < 4) a |= v << (7 * k);
      else if (k < 8) b |= v << (7 * (k - 4));
      else c += v * 2 ** (7 * (k - 8));
      if (g < 128) break;
    }
    const s = a & 1;
    // |I| = (V − s) / 2 = c·2^55 + b·2^27 + (a >>> 1): split at 2^32.
    const h = c * 2 ** 23 + (b >>> 5);
    if (h >= 2 ** 53) return -1;
    const l = (b & 31) * 2 ** 27 + (a >>> 1);
    hi[i] = s ? -h : h;
    lo[i] = s ? -l : l;
  }
  return p;
}

const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

function validHeader(h: Header): boolean {
  if (typeof h !== 'object' || h === null || !Array.isArray(h.deals) || !Array.isArray(h.fit) || !Array.isArray(h.cv)) return false;
  if (h.deals.length !== 2 || !count(h.deals[0]) || !count(h.deals[1]) || h.deals[1] < h.deals[0]) return false;
  const fold = (f: unknown): boolean => count(f) && (f as number) < LUCK_FOLDS;
  const fitOk = h.fit.every((e) => Array.isArray(e) && e.length === 5 && count(e[0]) && typeof e[1] === 'string' && fold(e[2]) && count(e[3]) && e[4] === FOLD_SUMS);
  const cvOk = h.cv.every((e) => Array.isArray(e) && e.length === 6 && count(e[0]) && Array.isArray(e[1]) && e[1].every((s) => typeof s === 'string') && count(e[2]) && fold(e[3]) && count(e[4]) && count(e[5]));
  return fitOk && cvOk;
}

/** What a run state or a manifest records of a sums file. */
export interface SumsRecord {
  readonly bytes: number;
  readonly sha256: string;
}

/** The SHA-256 (hex) a record of `bytes` holds. */
export function sumsRecord(bytes: Uint8Array): SumsRecord {
  return { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Read the sums file at `path`, which `recorder` (a file name, for messages) records as `want`
 * holding the sums of `deals`: missing, truncated, corrupt, of other deals (an older checkpoint's)
 * or otherwise different is an InputError naming `path` and what differs.
 */
export function readSums(path: string, want: SumsRecord, deals: DealRange, recorder: string): SumsFile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if (isSystemError(err) && err.code === 'ENOENT') throw new InputError(`${path}: missing (${recorder} records the luck sums of ${dealsText(deals)} in it)`);
    throw isSystemError(err) ? new IoError(path, 'read', err) : err;
  }
  let f: SumsFile;
  try {
    f = decodeSums(bytes, path);
  } catch (err) {
    if (bytes.length < want.bytes) throw new InputError(`${path}: truncated: ${bytes.length.toLocaleString('en-US')} bytes, ${recorder} records ${want.bytes.toLocaleString('en-US')}`);
    throw err;
  }
  if (f.deals.first !== deals.first || f.deals.end !== deals.end) throw new InputError(`${path}: holds the luck sums of ${dealsText(f.deals)}, ${recorder} records ${dealsText(deals)}: a file from another checkpoint or run`);
  const got = sumsRecord(bytes);
  if (got.bytes !== want.bytes || got.sha256 !== want.sha256) throw new InputError(`${path}: differs from what ${recorder} records (SHA-256 ${got.sha256.slice(0, 12)}…, recorded ${want.sha256.slice(0, 12)}…): modified or from another run`);
  return f;
}

/** Add a file's sums to `feed` (its own merge: the same bits as the feed that wrote them); sums of another shape than `feed` makes are an InputError naming `path`. */
export function restoreSums(feed: LuckFitFeed, f: SumsFile, path: string): void {
  try {
    feed.merge(f.sums);
  } catch (err) {
    throw new InputError(`${path}: not the luck sums this experiment makes (${err instanceof Error ? err.message : String(err)})`);
  }
}
