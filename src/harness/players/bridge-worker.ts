/**
 * The helper thread of a bridged bot program (bridge.ts): runs the program's BotProcess and
 * answers the main thread's calls in order, each answer posted on the port and signalled
 * through the shared flag the main thread waits on.
 */
import { workerData, type MessagePort } from 'node:worker_threads';
import { adoptChildList } from './children.js';
import { BotProcess, BotProcessError } from './process.js';
import type { BridgeCall, BridgeAnswer } from './bridge.js';

const data = workerData as { port: MessagePort; flag: SharedArrayBuffer; children: SharedArrayBuffer };
adoptChildList(data.children);
const flag = new Int32Array(data.flag);
let proc: BotProcess | undefined;

function answer(a: BridgeAnswer): void {
  data.port.postMessage(a);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

async function handle(call: BridgeCall): Promise<BridgeAnswer | undefined> {
  switch (call.op) {
    case 'start':
      proc = await BotProcess.start(call.spec, { rules: call.rules, timeoutMs: call.timeoutMs });
      return { ok: true, pid: proc.pid, batch: proc.batch, allDecisions: proc.allDecisions, view: proc.viewMode, ids: proc.ids };
    case 'send':
      proc?.send(call.message);
      return undefined; // no answer: the main thread does not wait
    case 'request':
      if (!proc) throw new BotProcessError('crash', 'is not running');
      return { ok: true, actions: await proc.request(call.decisions) };
    case 'close':
      await proc?.close();
      return { ok: true };
  }
}

// Calls are handled one at a time, in the order they were posted.
let chain: Promise<void> = Promise.resolve();
data.port.on('message', (call: BridgeCall) => {
  chain = chain.then(async () => {
    let a: BridgeAnswer | undefined;
    try {
      a = await handle(call);
    } catch (e) {
      a = { ok: false, fault: e instanceof BotProcessError ? e.fault : 'crash', message: e instanceof Error ? e.message : String(e) };
    }
    if (a) answer(a);
  });
});
