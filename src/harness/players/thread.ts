/**
 * A bot module in a thread of its own, behind the synchronous `decide` every engine loop calls:
 * how `tw16 replay` and `tw16 play` put a time limit on a bot written in JavaScript or TypeScript
 * (`tw16 run` has its worker threads and watchdog.ts). This thread sends each call — make a bot
 * for a seat, decide — to the bot's thread and waits on a shared flag (Atomics.wait) with the
 * time left; a bot that has not answered by then is stopped (its thread terminated) and the call
 * throws, which the engine reports as a BotError naming the bot.
 *
 * The bot plays exactly as in this thread: it is made with the same rules, decides on a view with
 * the same values (views.ts copies them; the bot's thread rebuilds a View from the copy), and its
 * random stream is this thread's own — each call of the bot's `rng()` asks this thread for the
 * next number of the seat's stream while the call waits.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { BotFactory, Profile, View } from '../../index.js';
import { viewData, type ViewData } from './views.js';

/** A call to the bot's thread. */
export type ThreadCall =
  | { readonly op: 'create'; readonly id: number; readonly seat: number; readonly rules: Profile }
  | { readonly op: 'decide'; readonly id: number; readonly view: ViewData; readonly legal: readonly number[] };

/** The bot thread's answer. */
export type ThreadAnswer = { readonly ok: true; readonly action?: unknown } | { readonly ok: false; readonly message: string; readonly stack?: string; readonly load?: boolean };

/** Flag 0 (this thread waits on it): what the bot's thread has for us. Flag 1 (the bot's thread waits on it): an rng number is ready. */
export const FLAG_NOTHING = 0;
export const FLAG_ANSWER = 1;
export const FLAG_RNG = 2;

/** The compiled worker: beside this file, or in dist/ when this runs from sources (vitest). */
function workerUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL(here.replace(/\/src\/harness\/players\/thread\.ts$/, '/dist/src/harness/players/thread-worker.js')) : new URL('./thread-worker.js', here);
}

/** An exception of the bot, carried over from its thread with its stack (the bot's file and line). */
class BotThreadError extends Error {
  constructor(message: string, stack?: string) {
    super(message);
    this.name = 'Error';
    if (stack) this.stack = stack;
  }
}

class BotThread {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flags = new Int32Array(new SharedArrayBuffer(8));
  private readonly number = new Float64Array(new SharedArrayBuffer(8));
  private dead: string | undefined;
  private nextId = 0;

  constructor(
    readonly path: string,
    private readonly timeoutMs: number,
  ) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(workerUrl(), { workerData: { path, port: port2, flags: this.flags.buffer, number: this.number.buffer }, transferList: [port2] });
    this.worker.unref();
    // Nothing is waited for at exit: a thread stuck in a bot is terminated with the process.
  }

  /** A new bot id in the bot's thread, made by its factory for `seat` with `rng`. */
  create(seat: number, rng: () => number, rules: Profile): number {
    const id = this.nextId++;
    // Loading the module is part of the first call; it gets the longer of the limit and 30 s.
    this.call({ op: 'create', id, seat, rules }, rng, id === 0 ? Math.max(this.timeoutMs, 30_000) : this.timeoutMs);
    return id;
  }

  decide(id: number, rng: () => number, view: View, legal: readonly number[]): unknown {
    return this.call({ op: 'decide', id, view: viewData(view), legal: [...legal] }, rng, this.timeoutMs).action;
  }

  private call(c: ThreadCall, rng: () => number, limitMs: number): Extract<ThreadAnswer, { ok: true }> {
    if (this.dead) throw new Error(this.dead);
    const flags = this.flags;
    Atomics.store(flags, 0, FLAG_NOTHING);
    this.port.postMessage(c);
    const deadline = performance.now() + limitMs;
    for (;;) {
      let what = Atomics.load(flags, 0);
      if (what === FLAG_NOTHING) {
        const left = deadline - performance.now();
        if (left > 0) Atomics.wait(flags, 0, FLAG_NOTHING, left);
        what = Atomics.load(flags, 0);
        if (what === FLAG_NOTHING) {
          if (performance.now() < deadline) continue;
          this.stop(`did not return within ${limitMs / 1000} s (--decision-timeout); its thread was stopped`);
          throw new Error(this.dead);
        }
      }
      if (what === FLAG_RNG) {
        // The bot called rng(): the next number of its seat's stream, from this thread.
        Atomics.store(flags, 0, FLAG_NOTHING);
        this.number[0] = rng();
        Atomics.store(flags, 1, 1);
        Atomics.notify(flags, 1);
        continue;
      }
      const m = receiveMessageOnPort(this.port)?.message as ThreadAnswer | undefined;
      if (!m) {
        this.stop('stopped answering');
        throw new Error(this.dead);
      }
      if (!m.ok) {
        if (m.load) {
          this.stop(m.message);
          throw new Error(m.message);
        }
        throw new BotThreadError(m.message, m.stack);
      }
      return m;
    }
  }

  private stop(why: string): void {
    this.dead = why;
    void this.worker.terminate();
  }
}

/**
 * The BotFactory of the bot module at absolute `path`, run in a thread of its own with `timeoutMs`
 * per call (making a bot, or one decision). The thread loads the module at the first call; an
 * error loading it there is thrown from that call.
 */
export function threadBot(path: string, timeoutMs: number): BotFactory {
  let thread: BotThread | undefined;
  return (seat, rng, rules) => {
    thread ??= new BotThread(path, timeoutMs);
    const t = thread;
    const id = t.create(seat, rng, rules);
    return { decide: (view, legal) => t.decide(id, rng, view, legal) as number };
  };
}

export type { MessagePort };
