/**
 * The hand-table cache (src/harness/io/tablecache.ts): what it reads back is exactly what a
 * build gives, a damaged file is never used (rebuilt and rewritten), and `off` writes nothing.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildHandTables, type HandTables } from '../../../src/hand/tables.js';
import { cachedHandTables, tableCachePath } from '../../../src/harness/io/tablecache.js';

const fresh = buildHandTables();

/** Every array and count of `t` equal to a fresh build's. */
function expectSameAsBuild(t: HandTables): void {
  for (const k of ['suit', 'honor'] as const) {
    expect(t[k].ranks).toBe(fresh[k].ranks);
    expect(t[k].profiles).toBe(fresh[k].profiles);
    for (const a of ['win', 'wait', 'profile', 'vectors', 'fewest'] as const) expect(Buffer.from(t[k][a].buffer, t[k][a].byteOffset, t[k][a].byteLength).equals(Buffer.from(fresh[k][a].buffer, fresh[k][a].byteOffset, fresh[k][a].byteLength)), `${k}.${a}`).toBe(true);
  }
  for (const a of ['combine2', 'combine3', 'final'] as const) expect(Buffer.from(t[a].buffer, t[a].byteOffset, t[a].byteLength).equals(Buffer.from(fresh[a].buffer, fresh[a].byteOffset, fresh[a].byteLength)), a).toBe(true);
  expect([t.pairProfiles, t.tripleProfiles, t.bytes]).toEqual([fresh.pairProfiles, fresh.tripleProfiles, fresh.bytes]);
  expect(t.combine3.buffer).toBeInstanceOf(SharedArrayBuffer);
}

describe('hand-table cache', () => {
  const saved = process.env.TW16_CACHE_DIR;
  afterEach(() => {
    if (saved === undefined) delete process.env.TW16_CACHE_DIR;
    else process.env.TW16_CACHE_DIR = saved;
  });

  it('writes the tables once, then reads back exactly what a build gives', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-tablecache-'));
    process.env.TW16_CACHE_DIR = dir;
    const path = tableCachePath()!;
    expect(path).toMatch(/hand-tables-[0-9a-f]{20}\.bin$/);
    expect(existsSync(path)).toBe(false);
    expectSameAsBuild(cachedHandTables());
    expect(existsSync(path)).toBe(true);
    const read = cachedHandTables();
    expectSameAsBuild(read);
    expect(readdirSync(dir)).toEqual([path.split('/').pop()]); // no temporary file left
  });

  it('never uses a damaged file: a flipped byte, a cut file, garbage; each is rebuilt and rewritten', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-tablecache-'));
    process.env.TW16_CACHE_DIR = dir;
    const path = tableCachePath()!;
    cachedHandTables();
    const good = readFileSync(path);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 1000]! ^= 0x40; // inside `final`: read as is, it would change a shanten
    for (const bad of [flipped, good.subarray(0, good.length >> 1), Buffer.from('not a cache\n')]) {
      writeFileSync(path, bad);
      expectSameAsBuild(cachedHandTables());
      expect(readFileSync(path).equals(good)).toBe(true);
    }
  });

  it('TW16_CACHE_DIR=off neither reads nor writes', () => {
    process.env.TW16_CACHE_DIR = 'off';
    expect(tableCachePath()).toBeUndefined();
    expectSameAsBuild(cachedHandTables());
  });
});
