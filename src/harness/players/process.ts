/**
 * One bot program speaking `tw16-bot/1` or `/2` (protocol.ts) over its stdin and stdout: started in a
 * process group of its own and listed until it exits (children.ts), its stderr passed through
 * line by line prefixed with its name. One request is outstanding at a time; the lines that need
 * no answer (`hand_start`, `hand_end`, `rules`) are queued and written with the next request.
 * The time limit is per decision: a request of N decisions must be answered within N × the limit.
 *
 * Any fault ends the program and fails every call after it with one BotProcessError naming the
 * bot and what it did: it could not be started, it exited, it did not answer a request within the
 * time limit, it wrote a line that is not a valid answer, or it reported an error itself.
 */
import { delimiter, join } from 'node:path';
import { PACKAGE_ROOT } from '../../version.js';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import type { Profile } from '../../index.js';
import { killGroup, listChild, unlistChild } from './children.js';
import {
  helloMessage,
  parseBotLine,
  ProtocolError,
  decisionJson,
  replyAction,
  shown,
  viewMode,
  actionIds,
  type ActionIds,
  type AnyDecision,
  type BotHello,
  type FromBot,
  type ToBot,
  type ViewMode,
} from './protocol.js';

/** A bot program: its name in the experiment, the command (program and arguments) and the directory it runs in. */
export interface BotCommand {
  readonly name: string;
  readonly command: readonly string[];
  /** Working directory (default: tw16's). */
  readonly cwd?: string;
}

/** What went wrong with a bot program. */
export type BotFault = 'start' | 'crash' | 'timeout' | 'protocol' | 'bot';

/** A bot program failed; `message` reads after "bot NAME …" (e.g. `exited with code 1`). */
export class BotProcessError extends Error {
  constructor(
    readonly fault: BotFault,
    message: string,
  ) {
    super(message);
    this.name = 'BotProcessError';
  }
}

export interface StartOptions {
  /** The rule profiles hands may be played under (sent in hello). */
  readonly rules: readonly Profile[];
  /** Longest wait for hello, and for a reply per decision of its request (ms); 0: no limit. */
  readonly timeoutMs: number;
  /** Where the bot's stderr goes, line by line (default: tw16's stderr, prefixed `[name] `). */
  readonly stderr?: (line: string) => void;
}

/**
 * The longest line a bot program may write (characters, without the newline): 1 MiB. A reply
 * holds one short action per decision, so real lines are far below it; a longer one is a
 * protocol fault naming its size, found once that many characters are in (docs/protocol.md).
 */
export const MAX_LINE = 1 << 20;

/** How long a bot being stopped for a fault may read tw16's error line before it is killed (ms). */
const ABORT_GRACE_MS = 500;

/** The longest the hello may take even with no decision limit: a program that never answers is stuck. */
const HELLO_FLOOR_MS = 30_000;

interface Waiting {
  readonly what: 'hello' | 'reply';
  readonly id: number;
  readonly resolve: (m: FromBot) => void;
  readonly reject: (e: BotProcessError) => void;
  readonly timer: NodeJS.Timeout | undefined;
}

export class BotProcess {
  readonly pid: number;
  /** Most decisions the bot takes per request (its hello's `batch`; Infinity when it set none). */
  batch = Infinity;
  /** The bot wants decisions with a single legal action too. */
  allDecisions = false;
  /** What the bot wants of each decision's view (its hello's `view`: full by default, none, or compact deltas). */
  viewMode: ViewMode = 'full';
  /** How actions are numbered in this conversation (the protocol version of the bot's hello). */
  ids: ActionIds = 'engine';
  private readonly child: ChildProcessWithoutNullStreams;
  private out = '';
  private err = '';
  private queued = '';
  private nextId = 0;
  private waiting: Waiting | undefined;
  private failure: BotProcessError | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    readonly spec: BotCommand,
    private readonly opts: StartOptions,
  ) {
    const [program, ...args] = spec.command;
    if (program === undefined) throw new BotProcessError('start', 'has an empty command');
    const child = spawn(program, args, { cwd: spec.cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true, env: programEnv(process.env) });
    this.child = child;
    this.pid = child.pid ?? 0;
    if (this.pid) listChild(this.pid);
    const where = spec.cwd ?? process.cwd();
    child.on('error', (e) => this.fail(new BotProcessError('start', `could not be started (${(e as NodeJS.ErrnoException).code ?? e.message}: ${spec.command.join(' ')}, in ${where})`)));
    child.stdin.on('error', () => {}); // EPIPE when it has died: its exit says why
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => this.onOut(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => this.onErr(chunk));
    this.exited = new Promise<void>((resolve) => {
      child.on('exit', () => {
        if (this.pid) {
          unlistChild(this.pid);
          killGroup(this.pid); // whatever it started in its group goes with it
        }
      });
      child.on('close', (code, signal) => {
        if (this.err) this.errLine(this.err);
        this.err = '';
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.fail(new BotProcessError('crash', this.waiting?.what === 'hello' ? `${how} before answering hello (its command: ${spec.command.join(' ')}, run in ${where})` : how));
        resolve();
      });
    });
  }

  /** Start the program and exchange hellos. Throws BotProcessError. */
  static async start(spec: BotCommand, opts: StartOptions): Promise<BotProcess> {
    const p = new BotProcess(spec, opts);
    const limit = opts.timeoutMs > 0 ? Math.max(opts.timeoutMs, HELLO_FLOOR_MS) : 0;
    const hello = (await p.exchange(`${JSON.stringify(helloMessage(spec.name, opts.rules, opts.timeoutMs))}\n`, 'hello', -1, limit)) as BotHello;
    if (hello.batch !== undefined) p.batch = hello.batch;
    p.allDecisions = hello.allDecisions === true;
    p.viewMode = viewMode(hello);
    p.ids = actionIds(hello);
    return p;
  }

  /** The error that ended the program, if one did. */
  get failed(): BotProcessError | undefined {
    return this.failure;
  }

  /** Queue a line that needs no answer (written before the next request, or at close). */
  send(m: ToBot): void {
    this.queued += `${JSON.stringify(m)}\n`;
  }

  /**
   * Ask for `decisions` (at most `batch`); resolves to one action per decision (string actions
   * mapped to ids where legal). The bot has the time limit once per decision.
   */
  async request(decisions: readonly AnyDecision[]): Promise<unknown[]> {
    const id = this.nextId++;
    const line = `{"type":"request","id":${id},"decisions":[${decisions.map(decisionJson).join(',')}]}\n`;
    const reply = await this.exchange(line, 'reply', id, this.opts.timeoutMs * decisions.length, decisions.length);
    if (reply.type !== 'reply') throw this.fail(new BotProcessError('protocol', `answered request ${id} with a ${reply.type} line`));
    const actions = reply.actions;
    if (actions.length !== decisions.length) {
      throw this.fail(new BotProcessError('protocol', `answered request ${id} with ${actions.length} action${actions.length === 1 ? '' : 's'} for ${decisions.length} decision${decisions.length === 1 ? '' : 's'}`));
    }
    return actions.map((a, i) => replyAction(a, decisions[i]!, this.ids));
  }

  /**
   * End the program: `bye`, then end of its stdin; a program still running after `graceMs` is
   * killed (its whole process group). Resolves once it has exited.
   */
  async close(graceMs = 1000): Promise<void> {
    if (!this.failure) {
      this.failure = new BotProcessError('crash', 'was closed');
      this.child.stdin.end(`${this.queued}${JSON.stringify({ type: 'bye' })}\n`);
      this.queued = '';
      const timer = setTimeout(() => this.kill(), graceMs);
      await this.exited;
      clearTimeout(timer);
    } else {
      // Ended by a fault: it exited, or it is being given ABORT_GRACE_MS to read why (abort).
      const timer = setTimeout(() => this.kill(), ABORT_GRACE_MS);
      await this.exited;
      clearTimeout(timer);
    }
  }

  /** Kill the program's process group now. */
  kill(): void {
    if (this.pid) killGroup(this.pid);
  }

  /** Tell the bot why it is being stopped (best effort: it has ABORT_GRACE_MS to read it), then kill it. */
  abort(message: string): void {
    if (!this.child.stdin.writable) return this.kill();
    this.child.stdin.end(`${JSON.stringify({ type: 'error', message })}\n`);
    setTimeout(() => this.kill(), ABORT_GRACE_MS);
  }

  private exchange(line: string, what: 'hello' | 'reply', id: number, timeoutMs: number, decisions = 0): Promise<FromBot> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new BotProcessError('protocol', `(tw16 bug) a second request while request ${this.waiting.id} is open`));
    return new Promise<FromBot>((resolve, reject) => {
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              const secs = timeoutMs / 1000;
              const per = decisions > 1 ? ` (${decisions} decisions × ${timeoutMs / decisions / 1000} s, --decision-timeout)` : ' (--decision-timeout)';
              this.fail(new BotProcessError('timeout', what === 'hello' ? `did not answer hello within ${secs} s` : `did not answer within ${secs} s${per}`));
            }, timeoutMs)
          : undefined;
      this.waiting = { what, id, resolve, reject, timer };
      this.child.stdin.write(this.queued + line);
      this.queued = '';
    });
  }

  /**
   * A chunk of the program's stdout: its complete lines are handled, the rest kept until its
   * newline comes. A line longer than MAX_LINE is a protocol fault as soon as that many
   * characters are in, so memory stays bounded whatever the program writes (it is stopped).
   */
  private onOut(chunk: string): void {
    let start = 0;
    let nl: number;
    while ((nl = chunk.indexOf('\n', start)) >= 0) {
      if (this.failure) return;
      const line = this.out + chunk.slice(start, nl);
      this.out = '';
      start = nl + 1;
      if (line.length > MAX_LINE) {
        this.lineTooLong(line.length, true);
        return;
      }
      this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
    if (this.failure) return;
    this.out += chunk.slice(start);
    if (this.out.length > MAX_LINE) this.lineTooLong(this.out.length, false);
  }

  private lineTooLong(length: number, whole: boolean): void {
    this.out = '';
    const size = `${whole ? '' : 'at least '}${length.toLocaleString('en-US')} characters`;
    this.fail(new BotProcessError('protocol', `wrote a line of ${size}, over the protocol's bound of ${MAX_LINE.toLocaleString('en-US')} (1 MiB; docs/protocol.md)`));
  }

  private onLine(line: string): void {
    if (line.trim() === '') return;
    const w = this.waiting;
    let m: FromBot;
    try {
      m = parseBotLine(line);
    } catch (e) {
      this.fail(new BotProcessError('protocol', (e as ProtocolError).message));
      return;
    }
    if (m.type === 'error') {
      this.fail(new BotProcessError('bot', `reported an error: ${m.message}`));
      return;
    }
    if (!w) {
      this.fail(new BotProcessError('protocol', `wrote a line when nothing was asked (stdout is for protocol lines only; log to stderr): ${shown(line)}`));
      return;
    }
    if (m.type !== (w.what === 'hello' ? 'hello' : 'reply')) {
      this.fail(new BotProcessError('protocol', `wrote a ${m.type} line where a ${w.what} was due: ${shown(line)}`));
      return;
    }
    if (m.type === 'reply' && m.id !== w.id) {
      this.fail(new BotProcessError('protocol', `answered request ${m.id} when request ${w.id} was open`));
      return;
    }
    this.waiting = undefined;
    if (w.timer) clearTimeout(w.timer);
    w.resolve(m);
  }

  private onErr(chunk: string): void {
    this.err += chunk;
    let nl: number;
    while ((nl = this.err.indexOf('\n')) >= 0) {
      this.errLine(this.err.slice(0, nl));
      this.err = this.err.slice(nl + 1);
    }
    // A stderr line longer than the bound is passed on in pieces (memory stays bounded).
    if (this.err.length > MAX_LINE) {
      this.errLine(this.err);
      this.err = '';
    }
  }

  private errLine(line: string): void {
    if (this.opts.stderr) this.opts.stderr(line);
    else process.stderr.write(`[${this.spec.name}] ${line}\n`);
  }

  /** Record the first fault, stop the program, fail the open request; returns the fault. */
  private fail(e: BotProcessError): BotProcessError {
    if (!this.failure) {
      this.failure = e;
      if (e.fault !== 'crash') this.abort(e.message);
    }
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      if (w.timer) clearTimeout(w.timer);
      w.reject(this.failure);
    }
    return this.failure;
  }
}

/** The Python helper of bots/examples/python (tw16bot.py), in this package. */
export const PYTHON_HELPER_DIR = join(PACKAGE_ROOT, 'bots/examples/python');

/**
 * A bot program's environment: tw16's own, with the directory of the Python helper (tw16bot.py)
 * last on PYTHONPATH, so `import tw16bot` works in a bot anywhere without copying it (a tw16bot
 * of the bot's own, earlier on the path, still comes first), and in TW16_PYTHON.
 */
export function programEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const path = env.PYTHONPATH ? `${env.PYTHONPATH}${delimiter}${PYTHON_HELPER_DIR}` : PYTHON_HELPER_DIR;
  return { ...env, PYTHONPATH: path, TW16_PYTHON: PYTHON_HELPER_DIR };
}
