/**
 * The packages the CLI's bundle loads (Arrow, yargs: scripts/bundle.ts builds each into one
 * CommonJS file beside the bundle) run with V8's code cache: compiling them was most of what
 * loading them cost a command (yargs 0.1 s → 0.05 s, Arrow 0.06 s → 0.02 s), and Node 20 caches
 * no module's code. The cache is a file in the cache directory (cachedir.ts) named by a hash of the
 * package file and of this Node (version, platform, flags), holding the SHA-256 of its data and the
 * data, written once a process that found none is exiting (so it holds what that command
 * compiled). It only saves time: data that does not match its SHA-256 is not used, data V8 refuses
 * is replaced, and with no cache (TW16_CACHE_DIR=off, an unwritable directory) the file compiles
 * as any script.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { Script } from 'node:vm';
import { cacheDir } from '../harness/io/cachedir.js';

/** What a cache file starts with; then the SHA-256 of the rest (32 bytes), then V8's data. */
const MAGIC = Buffer.from('tw16-code-cache-1\n');

/** The cache file for `source` compiled by this Node, or undefined when caches are off. */
export function codeCachePath(file: string, source: string): string | undefined {
  const dir = cacheDir();
  if (dir === undefined) return undefined;
  const key = createHash('sha256').update(MAGIC).update(JSON.stringify([process.version, process.arch, process.platform, process.execArgv, file])).update(source).digest('hex');
  return join(dir, `code-${key.slice(0, 24)}.bin`);
}

/** V8's data in the cache file at `path` when it is there and intact, else undefined. */
export function readCodeCache(path: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return undefined;
  }
  const at = MAGIC.length;
  if (bytes.length <= at + 32 || !bytes.subarray(0, at).equals(MAGIC)) return undefined;
  const data = bytes.subarray(at + 32);
  return createHash('sha256').update(data).digest().equals(bytes.subarray(at, at + 32)) ? data : undefined;
}

/** Write `data` as the cache file at `path` (temporary file, then rename); a failure only means no cache. */
export function writeCodeCache(path: string, data: Buffer): void {
  const tmp = `${path}.${process.pid}-${threadId}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(tmp, Buffer.concat([MAGIC, createHash('sha256').update(data).digest(), data]));
    renameSync(tmp, path);
  } catch {
    rmSync(tmp, { force: true });
  }
}

/**
 * `module.exports` of the CommonJS file `file` (a bundle that requires only Node's own modules),
 * compiled with the code cache when there is a good one.
 */
export function requireCached(file: string): unknown {
  const source = readFileSync(file, 'utf8');
  const path = codeCachePath(file, source);
  const cachedData = path === undefined ? undefined : readCodeCache(path);
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
  // Cached at exit, with what this command compiled (V8 compiles a function when first called).
  if (path !== undefined && (cachedData === undefined || script.cachedDataRejected)) process.once('exit', () => writeCodeCache(path, script.createCachedData()));
  return module.exports;
}
