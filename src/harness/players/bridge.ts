/**
 * A bot program as a BotFactory: `commandBot({ name, command })` plays through the synchronous
 * `decide` every engine loop calls (`playHand`, `playMatch`, `tw16 replay`, `tw16 play`), one
 * decision per request. The program runs in a helper thread (bridge-worker.ts) while this thread
 * waits on a shared flag (Atomics.wait) and takes the answer off the port
 * (receiveMessageOnPort): about the cost of the round trip to the program.
 *
 * Experiments do not come through here: the harness plays many tables at once and batches their
 * decisions (src/harness/run/tables.ts). Both send a bot the same messages for a table and seat —
 * `hand_start` with the seat's seed drawn from the stream the factory gets, for each of its seats
 * before the hand's first request, then one request per decision with more than one legal action
 * — so a run and its replay play the same. A bridged bot gets no `hand_end`: a factory does not
 * see the hand end.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { BotFactory, Profile, View } from '../../index.js';
import { childList, hookExit, killGroup } from './children.js';
import type { BotCommand, BotFault } from './process.js';
import { askMessage, handStartMessage, RiverDelta, seatSeed, ViewDelta, type ActionIds, type AnyDecision, type ToBot, type ViewMode } from './protocol.js';

/** A call to the helper thread. */
export type BridgeCall =
  | { readonly op: 'start'; readonly spec: BotCommand; readonly rules: readonly Profile[]; readonly timeoutMs: number }
  | { readonly op: 'send'; readonly message: ToBot }
  | { readonly op: 'request'; readonly decisions: readonly AnyDecision[] }
  | { readonly op: 'close' };

/** The helper's answer. */
export type BridgeAnswer =
  | { readonly ok: true; readonly pid?: number; readonly batch?: number; readonly allDecisions?: boolean; readonly view?: ViewMode; readonly ids?: ActionIds; readonly actions?: unknown[] }
  | { readonly ok: false; readonly fault: BotFault; readonly message: string };

/** Default time limit per decision (ms), as `tw16 run`'s. */
export const BRIDGE_TIMEOUT_MS = 5000;
/** What the main thread adds to the helper's own limit before giving up on the helper itself. */
const MARGIN_MS = 5000;

/** The compiled helper: beside this file, or in dist/ when this runs from sources (vitest). */
function helperUrl(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL(here.replace(/\/src\/harness\/players\/bridge\.ts$/, '/dist/src/harness/players/bridge-worker.js')) : new URL('./bridge-worker.js', here);
}

class Bridge {
  private readonly worker: Worker;
  private readonly port: MessagePort;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private pid = 0;
  private dead: string | undefined;
  private readonly profiles = new Set<string>();
  allDecisions = false;
  viewMode: ViewMode = 'full';
  /** How the program numbers actions (its protocol version). */
  ids: ActionIds = 'engine';
  /** The rivers sent in this hand (compact decisions: one table, 0). */
  readonly rivers = new RiverDelta();
  /** The program's seats of the hand being set up, and their seeds: their hand_start lines go out before its first decision. */
  private starting: { seat: number; seed: string }[] = [];

  constructor(
    readonly spec: BotCommand,
    private readonly timeoutMs: number,
    rules: Profile,
  ) {
    hookExit();
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(helperUrl(), { workerData: { port: port2, flag: this.flag.buffer, children: childList() }, transferList: [port2] });
    this.worker.unref();
    const a = this.call({ op: 'start', spec, rules: [rules], timeoutMs }, Math.max(timeoutMs, 30_000));
    this.pid = a.pid ?? 0;
    this.allDecisions = a.allDecisions === true;
    this.viewMode = a.view ?? 'full';
    this.ids = a.ids ?? 'engine';
    this.profiles.add(rules.name);
    // Close it properly when the process runs out of work (an exit without that kills it: children.ts).
    process.once('beforeExit', () => this.close());
  }

  /** Announce a profile the program has not seen yet. */
  useRules(rules: Profile): void {
    if (this.profiles.has(rules.name)) return;
    this.profiles.add(rules.name);
    this.send({ type: 'rules', profile: rules });
  }

  /** A seat of the program in the hand being set up (its factory was called): a new hand if the seat is already listed. */
  seatFor(seat: number, seed: string): void {
    if (this.starting.some((x) => x.seat === seat)) this.starting = [];
    if (this.starting.length === 0) this.rivers.reset();
    this.starting.push({ seat, seed });
  }

  /** Before a decision: the hand_start line of each seat of the hand not yet sent, all of them before its first decision. */
  startHand(view: View, rules: string): void {
    if (this.starting.length === 0) return;
    for (const { seat, seed } of this.starting) this.send(handStartMessage(0, seat, seed, { handKey: view.handKey, dealer: view.dealer, round: view.roundWind, streak: view.streak }, rules, view.scores));
    this.starting = [];
  }

  send(message: ToBot): void {
    if (!this.dead) this.port.postMessage({ op: 'send', message } satisfies BridgeCall);
  }

  request(d: AnyDecision): unknown {
    return this.call({ op: 'request', decisions: [d] }, this.timeoutMs).actions![0];
  }

  close(): void {
    if (this.dead) return;
    try {
      this.call({ op: 'close' }, 3000);
    } catch {
      // killed below
    }
    this.stop('was closed');
  }

  private call(c: BridgeCall, timeoutMs: number): Extract<BridgeAnswer, { ok: true }> {
    if (this.dead) throw new Error(this.dead);
    Atomics.store(this.flag, 0, 0);
    this.port.postMessage(c);
    const r = Atomics.wait(this.flag, 0, 0, timeoutMs > 0 ? timeoutMs + MARGIN_MS : undefined);
    const m = receiveMessageOnPort(this.port)?.message as BridgeAnswer | undefined;
    if (!m) {
      this.stop(r === 'timed-out' ? `did not answer within ${timeoutMs / 1000} s` : 'stopped answering');
      throw new Error(this.dead);
    }
    if (!m.ok) {
      this.stop(m.message);
      throw new Error(m.message);
    }
    return m;
  }

  private stop(why: string): void {
    this.dead = why;
    if (this.pid) killGroup(this.pid); // the helper lists it in this thread's list (children.ts) until it has exited
    void this.worker.terminate();
  }
}

/**
 * The BotFactory of a bot program. The program starts at the first hand (its hello carries that
 * hand's profile) and serves every seat and hand this factory makes bots for; a fault (it exits,
 * overruns `timeoutMs` per decision, writes something that is not a reply) makes `decide` throw,
 * which the engine reports as a BotError naming the bot.
 */
export function commandBot(spec: BotCommand, timeoutMs = BRIDGE_TIMEOUT_MS): BotFactory {
  let bridge: Bridge | undefined;
  return (seat, rng, rules) => {
    bridge ??= new Bridge(spec, timeoutMs, rules);
    const b = bridge;
    b.useRules(rules);
    b.seatFor(seat, seatSeed(rng));
    const delta = new ViewDelta();
    return {
      decide(view, legal) {
        b.startHand(view, rules.name);
        if (legal.length === 1 && !b.allDecisions) return legal[0]!;
        return b.request(askMessage(b.viewMode, 0, view, legal, delta, b.rivers, b.ids)) as number;
      },
    };
  };
}
