/**
 * `tw16 env`: the engine side of the Python learning environment (python/tw16env), on stdin and
 * stdout. The Python package starts it and speaks to it; a person never needs to. Requests are
 * lines; every answer is one frame: a 4-byte little-endian payload length, a type byte, the
 * payload — `J` a JSON object, `E` a JSON error `{error, kind}` (kind `input`, `bot` or
 * `internal`), `R` the tables' records (src/harness/run/env.ts, ENV_RECORD).
 *
 *   {"op":"open", "tables":N, "rules":"p0", "seats":["python","greedy","greedy","greedy"], "mode":"hands"|"match", "luck":false, "autoreset":false}  → J hello
 *   {"op":"reset", "seed":"S", "first":K}                                            → R
 *   s A0 A1 … (one action id per table)                                               → R
 *
 * It exits when its stdin ends (the Python side closed it, or died): the process never outlives
 * the environment that started it.
 */
import { EXIT, InputError } from '../core/errors.js';
import { BotError } from '../engine/types.js';
import { Environment, envOptions } from '../harness/run/env.js';
import type { CommandBody } from './command.js';

/** One frame: length, type, payload. */
function frame(type: 'J' | 'E' | 'R', payload: Uint8Array): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32LE(payload.length, 0);
  head[4] = type.charCodeAt(0);
  return Buffer.concat([head, payload]);
}

const json = (type: 'J' | 'E', value: unknown): Buffer => frame(type, Buffer.from(JSON.stringify(value)));

/** Serve requests from `input` lines, writing frames with `send`, until the input ends. */
export async function serveEnv(lines: AsyncIterable<string>, send: (b: Buffer) => void): Promise<void> {
  let env: Environment | undefined;
  let out: Uint8Array | undefined;
  for await (const line of lines) {
    if (line === '') continue;
    try {
      if (line.charCodeAt(0) === 115 /* s */ && line.charCodeAt(1) === 32) {
        if (!env) throw new InputError('tw16 env: step before open');
        const words = line.split(' ');
        const actions = new Array<number>(words.length - 1);
        for (let i = 1; i < words.length; i++) actions[i - 1] = Number(words[i]);
        env.step(actions, out!);
        send(frame('R', out!));
        continue;
      }
      let req: Record<string, unknown>;
      try {
        req = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw new InputError(`tw16 env: not a request: ${JSON.stringify(line.slice(0, 80))}`);
      }
      if (req.op === 'open') {
        env = await Environment.create(envOptions(req));
        out = new Uint8Array(env.recordBytes);
        send(json('J', env.hello));
      } else if (req.op === 'reset') {
        if (!env) throw new InputError('tw16 env: reset before open');
        env.reset(String(req.seed ?? '0'), Number(req.first ?? 0), out!);
        send(frame('R', out!));
      } else if (req.op === 'close') {
        return;
      } else throw new InputError(`tw16 env: unknown request ${JSON.stringify(req.op)}`);
    } catch (err) {
      const kind = err instanceof InputError ? 'input' : err instanceof BotError ? 'bot' : 'internal';
      send(json('E', { error: err instanceof Error ? err.message : String(err), kind }));
    }
  }
}

/** stdin as lines. */
async function* stdinLines(): AsyncGenerator<string> {
  let rest = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin as AsyncIterable<string>) {
    rest += chunk;
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, nl);
      rest = rest.slice(nl + 1);
    }
  }
  if (rest) yield rest;
}

export const envCommand: CommandBody<object> = {
  builder: (y) => y,
  handler: async () => {
    process.stdout.on('error', () => process.exit(EXIT.OK)); // the reader is gone
    await serveEnv(stdinLines(), (b) => process.stdout.write(b));
    process.exit(EXIT.OK); // bot programs' bridges must not keep the process
  },
};
