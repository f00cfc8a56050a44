/**
 * The hand tables (src/hand/tables.ts) kept in a file between runs: building them takes the
 * main thread 0.3–1.2 s before any worker can start, reading them back 20 ms. The file is a
 * cache, never an input: its name carries a hash of the code that builds the tables, its
 * contents a SHA-256 that is checked on every read, and anything amiss (missing, damaged,
 * another layout, unwritable directory) means the tables are built as before. Same values as a
 * build, in shared memory for the workers (as `shareHandTables`).
 *
 * Where: `$TW16_CACHE_DIR`, else `<os tmpdir>/tw16-cache`; `TW16_CACHE_DIR=off` never reads nor writes.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { adoptHandTables, shareHandTables, type HandTables, type RankTables } from '../../hand/index.js';

const MAGIC = 'tw16-hand-tables-1';

/** The arrays of a HandTables, in file order, with how to get and set them. */
const ARRAYS = ['suit.win', 'suit.wait', 'suit.profile', 'suit.vectors', 'suit.fewest', 'honor.win', 'honor.wait', 'honor.profile', 'honor.vectors', 'honor.fewest', 'combine2', 'combine3', 'final'] as const;

function arrayOf(t: HandTables, name: (typeof ARRAYS)[number]): Uint8Array | Uint16Array {
  const [a, b] = name.split('.') as [string, string | undefined];
  const holder = t as unknown as Record<string, unknown>;
  return (b ? (holder[a] as Record<string, unknown>)[b] : holder[a]) as Uint8Array | Uint16Array;
}

/** The cache file for the tables the current code builds. */
export function tableCachePath(): string | undefined {
  const dir = process.env.TW16_CACHE_DIR ?? join(tmpdir(), 'tw16-cache');
  if (dir === 'off') return undefined;
  // The code that builds the tables: tables.ts and the key encoding it imports (as this build holds them).
  const h = createHash('sha256').update(MAGIC);
  for (const f of ['../../hand/tables', '../../hand/keys']) {
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    h.update(readFileSync(fileURLToPath(new URL(f + ext, import.meta.url))));
  }
  return join(dir, `hand-tables-${h.digest('hex').slice(0, 20)}.bin`);
}

/**
 * The hand tables in shared memory for worker threads (`workerData`), adopted by this thread
 * too: read from the cache file when it holds them intact, else built and written there.
 */
export function cachedHandTables(): HandTables {
  let path: string | undefined;
  try {
    path = tableCachePath();
    const t = path ? readTables(path) : undefined;
    if (t) {
      adoptHandTables(t);
      return t;
    }
  } catch {
    // a cache that cannot be read is no cache
  }
  const t = shareHandTables();
  if (path) {
    try {
      writeTables(path, t);
    } catch {
      // nor one that cannot be written
    }
  }
  return t;
}

/** Header, then the arrays (each at an 8-byte boundary); the header holds the payload's SHA-256. */
function writeTables(path: string, t: HandTables): void {
  const parts = ARRAYS.map((n) => arrayOf(t, n));
  const offsets: number[] = [];
  let size = 0;
  for (const a of parts) {
    offsets.push(size);
    size += Math.ceil(a.byteLength / 8) * 8;
  }
  const payload = new Uint8Array(size);
  parts.forEach((a, i) => payload.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offsets[i]!));
  const rank = (r: RankTables) => ({ ranks: r.ranks, profiles: r.profiles });
  const header = {
    magic: MAGIC,
    suit: rank(t.suit),
    honor: rank(t.honor),
    pairProfiles: t.pairProfiles,
    tripleProfiles: t.tripleProfiles,
    arrays: parts.map((a, i) => ({ name: ARRAYS[i], type: a instanceof Uint16Array ? 'u16' : 'u8', offset: offsets[i], length: a.length })),
    sha256: createHash('sha256').update(payload).digest('hex'),
  };
  const head = Buffer.from(`${JSON.stringify(header)}\n`);
  mkdirSync(join(path, '..'), { recursive: true });
  const tmp = `${path}.${process.pid}-${threadId}.tmp`; // one writer per name, even among threads
  try {
    writeFileSync(tmp, Buffer.concat([head, payload]));
    renameSync(tmp, path); // whole or absent under its name (a reader checks the hash anyway)
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** The tables in `path`, in shared memory, or undefined if the file is missing or not intact. */
function readTables(path: string): HandTables | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  const nl = bytes.indexOf(10);
  if (nl < 0) return undefined;
  const header = JSON.parse(bytes.subarray(0, nl).toString('utf8')) as {
    magic: string;
    suit: { ranks: number; profiles: number };
    honor: { ranks: number; profiles: number };
    pairProfiles: number;
    tripleProfiles: number;
    arrays: { name: string; type: 'u8' | 'u16'; offset: number; length: number }[];
    sha256: string;
  };
  const payload = bytes.subarray(nl + 1);
  if (header.magic !== MAGIC || header.arrays.length !== ARRAYS.length || createHash('sha256').update(payload).digest('hex') !== header.sha256) return undefined;
  const arrays = new Map<string, Uint8Array | Uint16Array>();
  for (const a of header.arrays) {
    const width = a.type === 'u16' ? 2 : 1;
    if (a.offset + a.length * width > payload.length) return undefined;
    const shared = a.type === 'u16' ? new Uint16Array(new SharedArrayBuffer(a.length * 2)) : new Uint8Array(new SharedArrayBuffer(a.length));
    shared.set(a.type === 'u16' ? new Uint16Array(payload.buffer.slice(payload.byteOffset + a.offset, payload.byteOffset + a.offset + a.length * 2)) : payload.subarray(a.offset, a.offset + a.length));
    arrays.set(a.name, shared);
  }
  const rank = (k: 'suit' | 'honor'): RankTables => ({
    ranks: header[k].ranks,
    profiles: header[k].profiles,
    win: arrays.get(`${k}.win`) as Uint8Array,
    wait: arrays.get(`${k}.wait`) as Uint16Array,
    profile: arrays.get(`${k}.profile`) as Uint8Array,
    vectors: arrays.get(`${k}.vectors`) as Uint8Array,
    fewest: arrays.get(`${k}.fewest`) as Uint8Array,
  });
  const t: HandTables = {
    suit: rank('suit'),
    honor: rank('honor'),
    combine2: arrays.get('combine2') as Uint16Array,
    pairProfiles: header.pairProfiles,
    combine3: arrays.get('combine3') as Uint16Array,
    tripleProfiles: header.tripleProfiles,
    final: arrays.get('final') as Uint8Array,
    bytes: [...arrays.values()].reduce((s, a) => s + a.byteLength, 0),
  };
  // The layout must be the one this code builds (a stale file of another layout is not used).
  for (const n of ARRAYS) if (!(arrayOf(t, n) instanceof (n === 'suit.wait' || n === 'honor.wait' || n === 'combine2' || n === 'combine3' ? Uint16Array : Uint8Array))) return undefined;
  return t;
}
