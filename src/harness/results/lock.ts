/**
 * One process per result directory. Every command that writes a result directory (run, its
 * --resume and --continue, merge into it, rescore into it) holds `DIR/.tw16-lock` while it works:
 * a second one is refused at once (exit 2) naming the holder, so it can never disturb the first.
 *
 * What is guaranteed (docs/faults.md):
 * - Taking the lock is atomic: the holder's record is written to a file of its own, then
 *   hard-linked to the lock's name, which fails when the name exists (link is atomic on local
 *   file systems and on NFS, where O_EXCL was not always). Of two takers exactly one wins.
 * - A lock left by a process of this host that is gone (its pid is not alive, or the host was
 *   rebooted since: another boot id) is taken over. Of several takers only the one that creates
 *   `.tw16-lock.takeover-<nonce>` for that lock's nonce may remove it, so no taker ever removes a
 *   live lock; the winner then competes for the lock like anyone else.
 * - A lock taken on another host is never taken over: from here its pid cannot be checked. A
 *   scheduler that knows the holder is gone (its job ended) clears it with `rm DIR/.tw16-lock`.
 * - Released on every exit path the process lives through (return, error, SIGINT/SIGTERM/SIGHUP
 *   through the commands' handlers, and a last synchronous removal on process exit); a SIGKILL or
 *   a crash leaves it, and the next process of this host takes it over.
 * - A reused pid makes a stale lock look alive: the command is then refused (never a second
 *   writer), and the message says how to clear it.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { InputError, IoError, isSystemError } from '../../core/errors.js';
import { makeDirs } from '../io/files.js';

export const LOCK = '.tw16-lock';

/** What the lock file records about its holder. */
export interface LockHolder {
  readonly pid: number;
  readonly host: string;
  /** ISO time the lock was taken. */
  readonly started: string;
  /** The holder's command line, for people. */
  readonly command: string;
  /** The kernel's boot id when taken (Linux), so a lock from before a reboot is seen as stale. */
  readonly boot?: string;
  /** Unique per taking: what a takeover and a release check before removing. */
  readonly nonce: string;
}

/** A held lock; `release()` is idempotent. */
export interface DirLock {
  readonly dir: string;
  readonly holder: LockHolder;
  release(): void;
}

const held = new Map<string, { path: string; nonce: string; created: readonly string[] }>();
let exitHook = false;

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return undefined;
  }
}

function readHolder(path: string): LockHolder | undefined | 'unreadable' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (isSystemError(err) && err.code === 'ENOENT') return undefined;
    throw isSystemError(err) ? new IoError(path, 'read', err) : err;
  }
  try {
    const h = JSON.parse(text) as LockHolder;
    return Number.isSafeInteger(h?.pid) && typeof h.host === 'string' && typeof h.nonce === 'string' ? h : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return !(isSystemError(err) && err.code === 'ESRCH'); // EPERM: alive, another user's
  }
}

/** Why `h` is known to be gone (a takeover is safe), or undefined when it may still run. */
function staleReason(h: LockHolder): string | undefined {
  if (h.host !== hostname()) return undefined;
  const boot = bootId();
  if (h.boot && boot && h.boot !== boot) return 'taken before this host was restarted';
  if (h.pid === process.pid && ![...held.values()].some((l) => l.nonce === h.nonce)) return 'left by an earlier process with this pid';
  if (!pidAlive(h.pid)) return `pid ${h.pid} is not running`;
  return undefined;
}

function describe(h: LockHolder): string {
  return `pid ${h.pid} on host ${h.host}, since ${h.started}${h.command ? ` (${h.command})` : ''}`;
}

function unlinkQuiet(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/**
 * Take the lock of result directory `dir` (created, with missing parents, when absent) for
 * `command`, or throw: an InputError (exit 2) naming the live holder, or an IoError.
 */
export function lockResultDir(dir: string, command: string): DirLock {
  const created = makeDirs(dir);
  const path = join(dir, LOCK);
  const me: LockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), command, ...(bootId() ? { boot: bootId()! } : {}), nonce: randomBytes(12).toString('hex') };
  const mine = `${path}.${me.nonce}`;
  try {
    writeFileSync(mine, `${JSON.stringify(me)}\n`, { flag: 'wx' });
  } catch (err) {
    throw isSystemError(err) ? new IoError(dir, 'write the lock file (.tw16-lock) in', err) : err;
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(mine, path);
        break;
      } catch (err) {
        if (!isSystemError(err) || err.code !== 'EEXIST') throw isSystemError(err) ? new IoError(path, 'create', err) : err;
      }
      const h = readHolder(path);
      if (h === undefined) continue; // released meanwhile: try again
      if (h === 'unreadable') throw new InputError(`${dir}: locked by a process whose ${LOCK} cannot be read; if no tw16 works on ${dir}, remove ${path}`);
      const stale = staleReason(h);
      if (stale && attempt >= 5) throw new InputError(`${dir}: locked by a process that is gone (${describe(h)}: ${stale}), and taking it over did not succeed (a takeover interrupted?); remove ${path} and ${path}.takeover-*`);
      if (!stale) {
        throw new InputError(`${dir}: in use by another tw16 process (${describe(h)}): one process per result directory; wait for it to end, or if it is gone (another host's process cannot be checked from here) remove ${path}`);
      }
      takeOver(path, h);
    }
  } finally {
    unlinkQuiet(mine);
  }
  held.set(path, { path, nonce: me.nonce, created });
  if (!exitHook) {
    exitHook = true;
    process.on('exit', releaseAll);
  }
  return { dir, holder: me, release: () => release(path) };
}

/** Remove the stale lock `h` at `path`, if this process wins the right to (one taker per stale lock). */
function takeOver(path: string, h: LockHolder): void {
  const marker = `${path}.takeover-${h.nonce}`;
  try {
    writeFileSync(marker, `${process.pid}\n`, { flag: 'wx' });
  } catch (err) {
    if (isSystemError(err) && err.code === 'EEXIST') return; // another taker has it: look again
    throw isSystemError(err) ? new IoError(marker, 'create', err) : err;
  }
  try {
    // Only a holder of this marker removes lock `h.nonce`, so if it is still there it stays until we remove it.
    const now = readHolder(path);
    if (now !== undefined && now !== 'unreadable' && now.nonce === h.nonce) unlinkQuiet(path);
  } finally {
    unlinkQuiet(marker);
  }
}

function release(path: string): void {
  const l = held.get(path);
  if (!l) return;
  held.delete(path);
  const h = readHolder(path);
  if (h !== undefined && h !== 'unreadable' && h.nonce === l.nonce) unlinkQuiet(path);
  // Directories made only to hold the lock go again (deepest first); one with files stays.
  for (const d of [...l.created].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      break; // not empty: it holds a result or progress (or another process's directory)
    }
  }
}

function releaseAll(): void {
  for (const path of [...held.keys()]) release(path);
}

/** Run `fn` holding the lock of `dir`; released however `fn` ends. */
export async function withDirLock<T>(dir: string, command: string, fn: () => Promise<T>): Promise<T> {
  const lock = lockResultDir(dir, command);
  try {
    return await fn();
  } finally {
    lock.release();
  }
}
