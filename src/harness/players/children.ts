/**
 * Every bot program tw16 starts is in a process group of its own (so a Ctrl-C at the terminal
 * reaches tw16 alone, and a kill of the group takes the bot's own children with it) and is
 * listed here until it has exited, so that none outlives tw16:
 *
 * - a program is listed when it starts and unlisted when it exits;
 * - threads share one list (a SharedArrayBuffer the main thread makes and hands to its workers),
 *   so the main thread can kill what a worker started when that worker is stopped mid-job;
 * - in the main thread, an `exit` hook kills every listed group, and a SIGINT/SIGTERM/SIGHUP
 *   that nobody else handles kills them before the signal ends the process as it would have
 *   (`tw16 run` handles its signals and stops its bots itself).
 *
 * Only a SIGKILL of tw16 itself skips all of this; a bot then reads end-of-file on its stdin,
 * which the protocol says means "exit" (docs/protocol.md).
 */
import { isMainThread } from 'node:worker_threads';

/** Slots of the list: more programs than this at once are still killed by their own thread, but not listed. */
const SLOTS = 1024;

let list = new Int32Array(new SharedArrayBuffer(SLOTS * Int32Array.BYTES_PER_ELEMENT));
let hooked = false;

/** The shared list, for a worker thread's workerData. */
export function childList(): SharedArrayBuffer {
  return list.buffer as SharedArrayBuffer;
}

/** A worker thread: use the main thread's list. */
export function adoptChildList(buffer: SharedArrayBuffer): void {
  list = new Int32Array(buffer);
}

/** List a started program (its pid is its process group's id). */
export function listChild(pid: number): void {
  if (isMainThread) hookExit();
  for (let i = 0; i < list.length; i++) if (Atomics.compareExchange(list, i, 0, pid) === 0) return;
}

/** Unlist a program that has exited. */
export function unlistChild(pid: number): void {
  for (let i = 0; i < list.length; i++) if (Atomics.compareExchange(list, i, pid, 0) === pid) return;
}

/** The pids listed now. */
export function listedChildren(): number[] {
  const out: number[] = [];
  for (let i = 0; i < list.length; i++) {
    const p = Atomics.load(list, i);
    if (p !== 0) out.push(p);
  }
  return out;
}

/** Send `signal` to a program's process group (nothing if it is gone). */
export function killGroup(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

/** Kill every listed program's group at once and unlist it. */
export function killListed(): void {
  for (let i = 0; i < list.length; i++) {
    const p = Atomics.exchange(list, i, 0);
    if (p !== 0) killGroup(p);
  }
}

/** Wait until nothing is listed or `ms` have passed; true when nothing is. */
export async function drained(ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (listedChildren().length > 0) {
    if (performance.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
  return true;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** In the main thread, once: kill the listed programs on exit, and on a signal nobody else handles. */
export function hookExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', killListed);
  for (const sig of SIGNALS) {
    const onSignal = (): void => {
      // Another handler (tw16 run's) decides what the signal does and stops its bots itself;
      // alone, kill the bots and do what the default would (end the process by the signal).
      if (process.listenerCount(sig) > 1) return;
      killListed();
      process.off(sig, onSignal);
      process.kill(process.pid, sig);
    };
    process.on(sig, onSignal);
  }
}
