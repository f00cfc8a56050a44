/**
 * The luck sums file (src/harness/analysis/sumsfile.ts): every sum comes back as the same integer
 * (checked against BigInt arithmetic, at the edges of ExactSums' range too), equal sums are equal
 * bytes however they were split or grouped, a feed restored from a file gives the summary of the
 * feed that wrote it, and a damaged, truncated, foreign or stale file is an InputError naming it.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aleaNext, botStates } from '../../../src/core/rng.js';
import { InputError } from '../../../src/core/errors.js';
import { FOLD_SUMS } from '../../../src/harness/analysis/luckfit.js';
import { cvKind, LuckFitFeed, seatingsReplay, summarize, type LuckTransfer } from '../../../src/harness/analysis/summary.js';
import { decodeSums, encodeSums, readSums, restoreSums, SHARD_SUMS, sumsRecord } from '../../../src/harness/analysis/sumsfile.js';
import { validateExperiment } from '../../../src/harness/experiment/experiment.js';
import { readBatches, toBatch } from '../../../src/harness/io/read.js';
import { handColumns } from '../../../src/harness/results/records.js';
import { runExperiment } from '../../../src/harness/run/run.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SMALL = join(ROOT, 'test/fixtures/experiments/small.json');
const base = mkdtempSync(join(tmpdir(), 'tw16-sumsfile-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function stream(seed: string): () => number {
  const st = new Float64Array(16);
  botStates(seed, 5, st);
  return () => aleaNext(st, 0);
}

const W32 = 2n ** 32n;
const int = (hi: number, lo: number): bigint => BigInt(hi) * W32 + BigInt(lo);

/** Sums as ExactSums holds them: integers hi·2^32 + lo, lo within ±2^50, hi within ±2^53, in any split. */
function randomSums(u: () => number, len: number): { hi: Float64Array; lo: Float64Array } {
  const hi = new Float64Array(len);
  const lo = new Float64Array(len);
  const sign = (): number => (u() < 0.5 ? -1 : 1);
  for (let i = 0; i < len; i++) {
    const kind = Math.floor(u() * 6);
    if (kind === 0) continue; // zero
    lo[i] = sign() * Math.floor(u() * 2 ** (1 + Math.floor(u() * 50)));
    if (kind >= 3) hi[i] = sign() * Math.floor(u() * 2 ** (1 + Math.floor(u() * 51))); // any magnitude, any sign against lo
  }
  // The edges: the largest magnitudes ExactSums can hold, exact multiples of 2^32 and 2^28, ±1.
  const edges: [number, number][] = [[2 ** 53 - 2 ** 19, 2 ** 50 - 1], [-(2 ** 53 - 2 ** 19), -(2 ** 50 - 1)], [1, 0], [-1, 0], [0, 1], [0, -1], [0, 2 ** 28], [0, -(2 ** 32)], [5, -(2 ** 32)], [-5, 2 ** 32 - 1], [2 ** 45, 0], [2 ** 45 - 1, 2 ** 32 - 1], [-(2 ** 45), 1], [2 ** 22, 0]];
  edges.forEach(([h, l], k) => {
    hi[k] = h;
    lo[k] = l;
  });
  return { hi, lo };
}

function syntheticTransfer(seed: string): LuckTransfer {
  const u = stream(seed);
  return {
    fit: [0, 2].map((seg) => ({ seg, folds: [3, 0, 7].map((fold) => ({ key: `${seg % 2}\u0000bot${fold}`, fold, n: 1 + fold, ...randomSums(u, FOLD_SUMS) })) })),
    cv: [1, 0].map((arm) => ({ arm, names: ['a', 'b'], seg: 0, fold: arm + 4, n: 9, ...randomSums(u, 500) })),
  };
}

describe('luck sums file', () => {
  it('gives back every sum as the same integer (BigInt), at the edges of the range too, in canonical form: equal sums, equal bytes, whatever the split', () => {
    const t = syntheticTransfer('sums-1');
    const bytes = encodeSums(t, { first: 10, end: 250 });
    const f = decodeSums(bytes, 'x.sums');
    expect(f.deals).toEqual({ first: 10, end: 250 });
    const entries = (x: LuckTransfer) => [...x.fit.flatMap((s) => s.folds.map((g) => ({ id: `fit ${s.seg} ${g.key} ${g.fold} ${g.n}`, hi: g.hi, lo: g.lo }))), ...x.cv.map((c) => ({ id: `cv ${c.arm} ${c.names.join()} ${c.seg} ${c.fold} ${c.n}`, hi: c.hi, lo: c.lo }))];
    const want = new Map(entries(t).map((e) => [e.id, e]));
    const got = entries(f.sums);
    expect(got.map((e) => e.id).sort()).toEqual([...want.keys()].sort());
    let checked = 0;
    for (const g of got) {
      const w = want.get(g.id)!;
      for (let i = 0; i < g.hi.length; i++) {
        expect(int(g.hi[i]!, g.lo[i]!), `${g.id}[${i}]`).toBe(int(w.hi[i]!, w.lo[i]!));
        // Canonical: lo within ±2^32 and of the sum's sign.
        expect(Math.abs(g.lo[i]!)).toBeLessThan(2 ** 32);
        expect(g.hi[i]! * g.lo[i]!).toBeGreaterThanOrEqual(0);
        checked++;
      }
    }
    expect(checked).toBe(6 * FOLD_SUMS + 2 * 500);
    // The same integers split otherwise (a carry moved between hi and lo), the entries in another order: the same bytes.
    const moved: LuckTransfer = {
      fit: [...t.fit].reverse().map((s) => ({ seg: s.seg, folds: [...s.folds].reverse().map((g) => ({ ...g, hi: g.hi.map((h, i) => (Math.abs(g.lo[i]!) < 2 ** 49 && Math.abs(h) < 2 ** 52 ? h - 3 : h)), lo: g.lo.map((l, i) => (Math.abs(l) < 2 ** 49 && Math.abs(g.hi[i]!) < 2 ** 52 ? l + 3 * 2 ** 32 : l)) })) })),
      cv: [...t.cv].reverse(),
    };
    expect(Buffer.from(encodeSums(moved, { first: 10, end: 250 })).equals(Buffer.from(bytes))).toBe(true);
    expect(Buffer.from(encodeSums(f.sums, f.deals)).equals(Buffer.from(bytes))).toBe(true);
  });

  it('refuses a truncated, bit-flipped, foreign or resealed-but-malformed file with one line naming it', () => {
    const bytes = Buffer.from(encodeSums(syntheticTransfer('sums-2'), { first: 0, end: 40 }));
    const reseal = (b: Buffer): Buffer => {
      const body = b.subarray(0, b.length - 32);
      return Buffer.concat([body, createHash('sha256').update(body).digest()]);
    };
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(flipped.length / 2)]! ^= 0x10;
    const version = Buffer.from(bytes);
    version.writeUInt32LE(7, 8);
    const header = Buffer.from(bytes);
    header.write('{"deals":[0,40],"fit":[[0,"k",12,1,3]]', 16, 'latin1'); // a fold out of range (the header's length kept)
    const body = bytes.subarray(0, bytes.length - 32);
    const cut = reseal(Buffer.concat([body.subarray(0, body.length - 5), Buffer.alloc(32)]));
    const extra = reseal(Buffer.concat([body, Buffer.from([0]), Buffer.alloc(32)]));
    const cases: [string, Buffer, RegExp][] = [
      ['truncated', bytes.subarray(0, bytes.length - 100), /^f\.sums: corrupt: truncated or modified/],
      ['a flipped bit', flipped, /^f\.sums: corrupt: truncated or modified/],
      ['not a sums file', Buffer.from('{"hello": "world"} and then some more bytes than 48, to be sure of it'), /^f\.sums: not a tw16 luck sums file/],
      ['another format version (resealed)', reseal(version), /^f\.sums: a luck sums file of format 7, this tw16 reads format 1/],
      ['a malformed header (resealed)', reseal(header), /^f\.sums: corrupt: its header/],
      ['sums cut off (resealed)', cut, /^f\.sums: corrupt: (a sum is cut off|bytes after)/],
      ['bytes after the last sum (resealed)', extra, /^f\.sums: corrupt: bytes after its last sum/],
    ];
    for (const [what, b, message] of cases) {
      let err: unknown;
      try {
        decodeSums(b, 'f.sums');
      } catch (e) {
        err = e;
      }
      expect(err, what).toBeInstanceOf(InputError);
      expect((err as Error).message, what).toMatch(message);
      expect((err as Error).message.split('\n'), what).toHaveLength(1);
    }
  });

  it('readSums refuses a missing file, one shorter than recorded, one of other deals (an older checkpoint) and one that differs', () => {
    const dir = mkdtempSync(join(base, 'read-'));
    const file = join(dir, 'luck.3.partial.sums');
    const now = encodeSums(syntheticTransfer('sums-3'), { first: 0, end: 80 });
    const rec = sumsRecord(now);
    const deals = { first: 0, end: 80 };
    const refused = (bytes: Uint8Array | undefined, message: RegExp): void => {
      rmSync(file, { force: true });
      if (bytes) writeFileSync(file, bytes);
      expect(() => readSums(file, rec, deals, 'run-state.json')).toThrow(message);
    };
    writeFileSync(file, now);
    expect(readSums(file, rec, deals, 'run-state.json').deals).toEqual(deals);
    refused(undefined, /luck\.3\.partial\.sums: missing \(run-state\.json records the luck sums of deals 0–79 in it\)/);
    refused(now.subarray(0, 1000), /luck\.3\.partial\.sums: truncated: 1,000 bytes, run-state\.json records [\d,]+/);
    refused(encodeSums(syntheticTransfer('sums-4'), { first: 0, end: 40 }), /holds the luck sums of deals 0–39, run-state\.json records deals 0–79: a file from another checkpoint or run/);
    refused(encodeSums(syntheticTransfer('sums-5'), deals), /differs from what run-state\.json records \(SHA-256 [0-9a-f]{12}…, recorded [0-9a-f]{12}…\): modified or from another run/);
  });
});

describe('a feed restored from its file', () => {
  // Its features recorded, to make the reference feed from the rows whatever the default.
  const e = validateExperiment({ ...JSON.parse(readFileSync(SMALL, 'utf8')), record: ['luck-features'] }, SMALL, ROOT);
  const whole = join(base, 'whole');
  const shards = join(base, 'shards');
  /** A feed of every row of hands.arrow in `dir`, as the run's own. */
  const feedOf = async (dir: string): Promise<LuckFitFeed> => {
    const cols = handColumns(e);
    const feed = new LuckFitFeed(cols, seatingsReplay(e.seating), [], cvKind(e.seating));
    for await (const rb of readBatches(join(dir, 'hands.arrow'))) feed.add(toBatch(rb, cols));
    return feed;
  };
  beforeAll(async () => {
    expect((await runExperiment({ experiment: e, outDir: whole, workers: 0 })).status).toBe('complete');
    for (const index of [1, 2, 3]) expect((await runExperiment({ experiment: e, outDir: join(shards, `${index}`), workers: 0, shard: { index, count: 3 } })).status).toBe('complete');
  });

  it('gives the summary of the feed that wrote it, byte for byte', async () => {
    const feed = await feedOf(whole);
    const bytes = encodeSums(feed.transfer(), { first: 0, end: e.deals });
    const restored = new LuckFitFeed(handColumns(e), seatingsReplay(e.seating), [], cvKind(e.seating));
    restoreSums(restored, decodeSums(bytes, 'x'), 'x');
    const sum = async (luck: LuckFitFeed) => JSON.stringify(await summarize(join(whole, 'hands.arrow'), join(whole, 'wins.arrow'), { luck }));
    const summary = await sum(restored);
    expect(summary).toBe(await sum(feed));
    expect(`${JSON.stringify(JSON.parse(summary), null, 2)}\n`).toBe(readFileSync(join(whole, 'summary.json'), 'utf8'));
  });

  it("three shards' luck.sums, restored into one feed, are the whole run's sums, bit for bit", async () => {
    const all = new LuckFitFeed(handColumns(e), seatingsReplay(e.seating), [], cvKind(e.seating));
    for (const index of [2, 3, 1]) {
      const path = join(shards, `${index}`, SHARD_SUMS);
      restoreSums(all, decodeSums(readFileSync(path), path), path);
    }
    const want = encodeSums((await feedOf(whole)).transfer(), { first: 0, end: e.deals });
    expect(Buffer.from(encodeSums(all.transfer(), { first: 0, end: e.deals })).equals(Buffer.from(want))).toBe(true);
  });

  it('sums of another shape than the experiment makes are refused naming the file', () => {
    const pairs = decodeSums(encodeSums(syntheticTransfer('sums-6'), { first: 0, end: 1 }), 'p');
    const feed = new LuckFitFeed(handColumns(e), seatingsReplay(e.seating), [], 'bots');
    expect(() => restoreSums(feed, pairs, 'other.sums')).toThrow(/^other\.sums: not the luck sums this experiment makes/);
  });
});
