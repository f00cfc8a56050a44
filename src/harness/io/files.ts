/**
 * Files that survive a crash: whole files appear under their final names only once their
 * bytes are on the disk (temporary name, fsync, rename, fsync of the directory), and every
 * OS failure becomes an IoError naming the path (exit 3) instead of a raw Node error.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fsync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { InputError, IoError, isSystemError } from '../../core/errors.js';

/** Run `fn`; an OS error becomes an IoError saying what could not be done to `path`. */
export function io<T>(path: string, what: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw isSystemError(err) ? new IoError(path, what, err) : err;
  }
}

/** `io` for promises. */
export async function ioAsync<T>(path: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw isSystemError(err) ? new IoError(path, what, err) : err;
  }
}

/** Flush a file's bytes to the disk. */
export function fsyncFile(path: string): void {
  io(path, 'sync', () => {
    const fd = openSync(path, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  });
}

/** Flush a directory's entries (creations, renames, removals in it) to the disk. */
export function fsyncDir(dir: string): void {
  io(dir, 'sync directory', () => {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } catch (err) {
      // Some file systems cannot sync a directory; their renames are as durable as they get.
      if (!isSystemError(err) || !['EINVAL', 'EPERM', 'EISDIR', 'ENOTSUP'].includes(err.code)) throw err;
    } finally {
      closeSync(fd);
    }
  });
}

/** Flush file descriptor `fd` to the disk in libuv's pool: the calling thread goes on meanwhile. */
export function fsyncAsync(fd: number, path: string, what = 'sync'): Promise<void> {
  return ioAsync(path, what, () => new Promise<void>((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve()))));
}

/**
 * `writeAtomic` with its waits for the disk off the calling thread: the bytes are written and
 * renamed here, through node:fs's synchronous calls as everywhere, and each flush (the file's,
 * then its directory's) runs in libuv's pool. Resolves once `file` holds `data` durably.
 */
export async function writeAtomicAsync(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.tmp`;
  const fd = io(tmp, 'write', () => openSync(tmp, 'w'));
  try {
    io(tmp, 'write', () => writeFileSync(fd, data));
    await fsyncAsync(fd, tmp, 'write');
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  io(file, `rename ${basename(tmp)} to`, () => renameSync(tmp, file));
  const dir = dirname(file);
  const dfd = io(dir, 'sync directory', () => openSync(dir, 'r'));
  try {
    await ioAsync(dir, 'sync directory', () =>
      new Promise<void>((resolve, reject) =>
        fsync(dfd, (err) => {
          // As fsyncDir: some file systems cannot sync a directory.
          if (err && !['EINVAL', 'EPERM', 'EISDIR', 'ENOTSUP'].includes(err.code ?? '')) reject(err);
          else resolve();
        }),
      ),
    );
  } finally {
    closeSync(dfd);
  }
}

/** Write `data` to `file` so that `file` is either its old contents or all of `data`, durably. */
export function writeAtomic(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.tmp`;
  io(tmp, 'write', () => {
    const fd = openSync(tmp, 'w');
    try {
      writeFileSync(fd, data);
      fsyncSync(fd);
    } catch (err) {
      closeSync(fd);
      rmSync(tmp, { force: true }); // a half-written file helps no one (and holds the space a full disk needs)
      throw err;
    }
    closeSync(fd);
  });
  io(file, `rename ${basename(tmp)} to`, () => renameSync(tmp, file));
  fsyncDir(dirname(file));
}

/**
 * Create directory `dir` and its missing parents, one mkdir each (not `mkdirSync`'s recursive
 * mode: on Node 20 it loops forever where mkdir answers ENOENT for a parent that exists, as under
 * /proc). A path that cannot hold a directory fails at once: a parent that is a file is bad input
 * (exit 2), anything else the OS refuses an IoError naming the path (exit 3). Returns the
 * directories it created, outermost first.
 */
export function makeDirs(dir: string): string[] {
  const path = resolve(dir);
  const missing: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    let isDir: boolean;
    try {
      isDir = statSync(p).isDirectory();
    } catch (err) {
      if (isSystemError(err) && err.code === 'ENOENT' && dirname(p) !== p) {
        missing.unshift(p);
        continue;
      }
      if (isSystemError(err) && err.code === 'ENOTDIR') throw new InputError(`${dir}: cannot hold a directory: a parent of it is a file`);
      throw isSystemError(err) ? new IoError(p, 'create directory', err) : err;
    }
    if (!isDir) throw new InputError(p === path ? `${dir}: is a file, not a directory` : `${dir}: cannot hold a directory: ${p} is a file`);
    break;
  }
  const created: string[] = [];
  for (const p of missing) {
    try {
      mkdirSync(p);
      created.push(p);
    } catch (err) {
      if (isSystemError(err) && err.code === 'EEXIST' && statSync(p).isDirectory()) continue; // made meanwhile by another process
      throw isSystemError(err) ? new IoError(dir, 'create directory', err) : err;
    }
  }
  return created;
}

/** Remove a file if it exists. */
export function removeFile(path: string): void {
  io(path, 'remove', () => {
    try {
      unlinkSync(path);
    } catch (err) {
      if (!isSystemError(err) || err.code !== 'ENOENT') throw err;
    }
  });
}

/** Remove a directory tree if it exists. */
export function removeTree(path: string): void {
  io(path, 'remove', () => rmSync(path, { recursive: true, force: true }));
}

/** Rename `from` to `to` (same file system). */
export function renameFile(from: string, to: string): void {
  io(to, `rename ${from} to`, () => renameSync(from, to));
}

/** Read a UTF-8 file the user named: a missing one is bad input (exit 2), an unreadable one an I/O failure. */
export function readInputText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (isSystemError(err) && ['ENOENT', 'ENOTDIR', 'EISDIR'].includes(err.code)) throw new InputError(`${path}: ${err.code === 'EISDIR' ? 'is a directory' : 'not found'}`);
    throw isSystemError(err) ? new IoError(path, 'read', err) : err;
  }
}

/** How `readJsonFile` words its two input errors (the I/O failure is always an IoError). */
export interface JsonFileMessages {
  /** The message when the file does not exist (default `PATH: not found`). */
  readonly missing?: (path: string) => string;
  /** What to call a file that does not parse (default `not valid JSON`): `PATH: <this> (<parser's reason>)`. */
  readonly invalid?: string;
  /** Refuse an object holding a key twice (JSON.parse keeps the last silently): for files people write. */
  readonly unique?: boolean;
}

/**
 * The first key an object of JSON text `text` (valid JSON) holds twice, with its object's path
 * (`stakes.base`), or undefined.
 */
export function duplicateKey(text: string): string | undefined {
  // A scan of the valid text: per open object its keys so far; a string right after `{` or `,` in an object is a key.
  const stack: ({ keys: Set<string>; path: string; key?: string } | { index: number; path: string })[] = [];
  let expectKey = false;
  const pathOf = (): string => {
    const top = stack[stack.length - 1];
    if (!top) return '';
    const here = 'keys' in top ? (top.key ?? '') : `[${top.index}]`;
    return top.path === '' ? here : here.startsWith('[') ? `${top.path}${here}` : `${top.path}.${here}`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (expectKey && top && 'keys' in top) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return top.path === '' ? key : `${top.path}.${key}`;
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = j;
    } else if (c === '{') {
      stack.push({ keys: new Set(), path: pathOf() });
      expectKey = true;
    } else if (c === '[') {
      stack.push({ index: 0, path: pathOf() });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top && 'keys' in top) expectKey = true;
      else if (top) top.index++;
    }
  }
  return undefined;
}

/**
 * The one reader of JSON files (experiments, run states, manifests, summaries, case files,
 * digests): a missing file or one that does not parse is bad input (exit 2) naming the path and
 * the parser's reason; any other read failure an IoError (exit 3). The caller checks the shape.
 */
export function readJsonFile(path: string, messages: JsonFileMessages = {}): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (isSystemError(err) && ['ENOENT', 'ENOTDIR', 'EISDIR'].includes(err.code)) {
      throw new InputError(err.code === 'EISDIR' ? `${path}: is a directory` : (messages.missing?.(path) ?? `${path}: not found`));
    }
    throw isSystemError(err) ? new IoError(path, 'read', err) : err;
  }
  // A UTF-8 byte order mark (some Windows editors write one) is accepted: it says nothing about the JSON.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new InputError(`${path}: ${messages.invalid ?? 'not valid JSON'} (${(err as Error).message})`);
  }
  const twice = messages.unique ? duplicateKey(text) : undefined;
  if (twice !== undefined) throw new InputError(`${path}: key "${twice}" appears twice (JSON keeps only the last; remove one)`);
  return json;
}

/**
 * SHA-256 of the first `limit` bytes of a file (all of it by default), read in chunks. Returns
 * the running hash too (not yet digested), so a writer can continue it.
 */
export async function hashFile(path: string, limit = Infinity): Promise<{ sha256: string; bytes: number; hash: Hash }> {
  const hash = createHash('sha256');
  let bytes = 0;
  await ioAsync(path, 'read', async () => {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.allocUnsafe(1 << 20);
      while (bytes < limit) {
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, limit - bytes), bytes);
        if (bytesRead === 0) break;
        hash.update(buf.subarray(0, bytesRead));
        bytes += bytesRead;
      }
    } finally {
      await fh.close();
    }
  });
  return { sha256: hash.copy().digest('hex'), bytes, hash };
}

/** SHA-256 of a file's bytes, synchronously (small files: state, bot modules). */
export function hashFileSync(path: string): string {
  return createHash('sha256').update(io(path, 'read', () => readFileSync(path))).digest('hex');
}
