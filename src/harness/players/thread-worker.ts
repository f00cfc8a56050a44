/**
 * The thread of a bot module (thread.ts): loads the module, makes its bots and answers the
 * calls of the engine's thread in order, each answer posted on the port and signalled through
 * the shared flag that thread waits on. A bot's `rng()` asks that thread for the next number of
 * the seat's stream (it is waiting on the flag meanwhile) and waits for it here.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import type { Bot, BotFactory, Profile } from '../../index.js';
import { factoryFromModule } from './load.js';
import { importBotModule } from './loader.js';
import { FLAG_ANSWER, FLAG_RNG, type ThreadAnswer, type ThreadCall } from './thread.js';
import { dataView } from './views.js';

const data = workerData as { path: string; port: MessagePort; flags: SharedArrayBuffer; number: SharedArrayBuffer };
const flags = new Int32Array(data.flags);
const number = new Float64Array(data.number);
const bots = new Map<number, { bot: Bot; rules: Profile }>();
let factory: BotFactory | undefined;

function answer(a: ThreadAnswer): void {
  data.port.postMessage(a);
  Atomics.store(flags, 0, FLAG_ANSWER);
  Atomics.notify(flags, 0);
}

/** The seat's stream, drawn in the engine's thread. */
function rng(): number {
  Atomics.store(flags, 1, 0);
  Atomics.store(flags, 0, FLAG_RNG);
  Atomics.notify(flags, 0);
  Atomics.wait(flags, 1, 0);
  return number[0]!;
}

async function handle(c: ThreadCall): Promise<ThreadAnswer> {
  if (c.op === 'create') {
    if (!factory) {
      try {
        factory = factoryFromModule(await importBotModule(data.path), data.path);
      } catch (err) {
        return { ok: false, load: true, message: err instanceof Error ? err.message : String(err) };
      }
    }
    bots.set(c.id, { bot: factory(c.seat, rng, c.rules), rules: c.rules });
    return { ok: true };
  }
  const b = bots.get(c.id)!;
  return { ok: true, action: b.bot.decide(dataView(c.view, b.rules), c.legal) };
}

data.port.on('message', (c: ThreadCall) => {
  void handle(c).then(answer, (err: unknown) => answer({ ok: false, message: err instanceof Error ? err.message : String(err), ...(err instanceof Error && err.stack ? { stack: err.stack } : {}) }));
});
