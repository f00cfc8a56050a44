/**
 * `tw16 play`: a person plays one seat in the terminal against bots.
 *
 *   tw16 play [--rules P] [--seat S] [--bots a,b,c] [--seed X] [--hands N | --match] [--decisions FILE]
 *
 * Each decision shows the table as the seat may see it and numbers the legal actions; claims are
 * asked when the seat has a choice. The person's decisions are written to a decisions file as
 * they are made, and the end of each hand prints the `tw16 replay` command (with
 * `--decisions FILE`) that plays the hand again exactly. Bad input at the prompt asks again;
 * Ctrl-C or the end of input stops the game (exit 130) with the decisions so far kept.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { EXIT, UsageError } from '../core/errors.js';
import { parseTile } from '../core/tiles.js';
import { action, ActionKind, type Action } from '../engine/actions.js';
import { handPosition, MatchStepper } from '../engine/match.js';
import type { BotFactory, HandAt, HandResult } from '../engine/types.js';
import { replayCommand, withReplay } from '../harness/experiment/replay.js';
import { DecisionsWriter, HUMAN, parseAction } from '../harness/view/decisions.js';
import { describe, HandModel, type Frame, type HandHead } from '../harness/view/handview.js';
import { playHandLive } from '../harness/view/live.js';
import { absoluteBotSpec, loadBotFactory } from '../harness/players/load.js';
import { rulesFlag, timeoutMs, timeoutOption } from './flags.js';
import { asTyped } from './invocation.js';
import { decisionScreen, endScreen, type Session } from './screen.js';
import type { CommandBody } from './command.js';

interface PlayArgs {
  rules: string;
  seat: number;
  bots: string;
  seed?: string;
  hands?: number;
  match: boolean;
  decisions?: string;
  check: boolean;
  decisionTimeout: number;
}

function builder(y: Argv): Argv<PlayArgs> {
  return y
    .option('rules', { type: 'string', default: 'p0', describe: 'rule profile: a name, a JSON file, or inline JSON' })
    .option('seat', { type: 'number', default: 0, describe: 'your seat 0–3 (the dealer of hand K is seat K mod 4)' })
    .option('bots', { type: 'string', default: 'greedy', describe: 'the other three seats in seat order, comma-separated (one name = all three); names or module paths' })
    .option('seed', { type: 'string', describe: 'seed of the walls and the bots (default: a new random one)' })
    .option('hands', { type: 'number', describe: 'independent hands to play (default 1)' })
    .option('match', { type: 'boolean', default: false, describe: 'play a whole match: dealer streaks, wind rounds, running scores' })
    .option('decisions', { type: 'string', describe: 'where to record your decisions (default tw16-play-SEED.jsonl, numbered if taken)' })
    .option('check', { type: 'boolean', default: false, describe: 'run both referees (bookkeeping and rules checkers) after every step; a finding stops the game (exit 70)' })
    .option('decision-timeout', timeoutOption) as unknown as Argv<PlayArgs>;
}

/** The person stopped the game (Ctrl-C, or the end of input). */
class Stopped extends Error {}

/** Reads answers line by line; lines typed ahead are kept. Ctrl-C or the end of input rejects the pending and every later question. */
class Prompter {
  private readonly rl: Interface;
  private readonly queued: string[] = [];
  private waiting: { resolve: (line: string) => void; reject: (err: Error) => void } | null = null;
  private stopped: Stopped | null = null;

  constructor() {
    const terminal = process.stdin.isTTY === true && process.stdout.isTTY === true;
    this.rl = createInterface({ input: process.stdin, output: process.stdout, terminal });
    this.rl.on('line', (line) => {
      const w = this.waiting;
      this.waiting = null;
      if (w) {
        if (!terminal) process.stdout.write(`${line}\n`); // a terminal echoes the answer; a transcript should show it too
        w.resolve(line);
      } else this.queued.push(line);
    });
    this.rl.on('SIGINT', () => this.stop('interrupted'));
    this.rl.on('close', () => this.stop('the input ended'));
    process.once('SIGINT', this.onSignal);
  }

  private readonly onSignal = (): void => this.stop('interrupted');

  private stop(why: string): void {
    this.stopped ??= new Stopped(why);
    const w = this.waiting;
    this.waiting = null;
    w?.reject(this.stopped);
  }

  ask(prompt: string): Promise<string> {
    const line = this.queued.shift();
    if (line !== undefined) {
      process.stdout.write(`${prompt}${line}\n`);
      return Promise.resolve(line);
    }
    if (this.stopped) return Promise.reject(this.stopped);
    this.rl.setPrompt(prompt);
    this.rl.prompt();
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  close(): void {
    process.removeListener('SIGINT', this.onSignal);
    this.rl.close();
  }
}

/** The legal action an answer names: its number in the list, the action as listed (`pung 5m`), or a tile to discard (`5m`); null if none. */
export function chooseAnswer(answer: string, legal: readonly Action[]): Action | null {
  const text = answer.trim().toLowerCase();
  if (/^\d+$/.test(text)) return legal[Number(text) - 1] ?? null;
  let a: Action;
  try {
    a = /^\d[mpsz]$/.test(text) ? action(ActionKind.DISCARD, parseTile(text)) : parseAction(text);
  } catch {
    return null;
  }
  return legal.includes(a) ? a : null;
}

/** A decisions file name not yet taken: `tw16-play-SEED.jsonl`, then `-2`, `-3`, … */
function freeName(seed: string): string {
  const base = `tw16-play-${seed.replace(/[^\w.-]/g, '_')}`;
  for (let i = 1; ; i++) {
    const name = `${base}${i > 1 ? `-${i}` : ''}.jsonl`;
    if (!existsSync(name)) return name;
  }
}

/** Check the flags; the three bots' names by seat order and their factories. */
async function setup(argv: PlayArgs): Promise<{ names: string[]; bots: (BotFactory | null)[] }> {
  if (!Number.isInteger(argv.seat) || argv.seat < 0 || argv.seat > 3) throw new UsageError(`--seat must be a seat 0–3, got ${argv.seat}`);
  if (argv.hands !== undefined && argv.match) throw new UsageError('--hands and --match exclude each other: give one');
  if (argv.hands !== undefined && (!Number.isSafeInteger(argv.hands) || argv.hands < 1 || argv.hands > 2 ** 32)) throw new UsageError(`--hands must be a whole number from 1, got ${argv.hands}`);
  let others = argv.bots.split(',').map((s) => s.trim());
  if (others.length === 1) others = [others[0]!, others[0]!, others[0]!];
  if (others.length !== 3 || others.some((n) => n === '')) throw new UsageError(`--bots needs one name or three (the other seats, in seat order), comma-separated; got "${argv.bots}"`);
  if (others.includes(HUMAN)) throw new UsageError(`--bots: "${HUMAN}" is your seat's name; name bots for the other seats`);
  const limit = timeoutMs(argv.decisionTimeout);
  const names: string[] = [];
  const bots: (BotFactory | null)[] = [];
  for (let s = 0, k = 0; s < 4; s++) {
    names.push(s === argv.seat ? HUMAN : others[k++]!);
    bots.push(s === argv.seat ? null : await loadBotFactory(names[s]!, undefined, { timeoutMs: limit }));
  }
  return { names, bots };
}

/** `tw16 play`. */
export const playCommand: CommandBody<PlayArgs> = {
  builder,
  handler: async (argv: ArgumentsCamelCase<PlayArgs>) => {
    const rules = rulesFlag(argv.rules);
    const rulesSpec = argv.rules.endsWith('.json') ? resolve(argv.rules) : argv.rules;
    const { names, bots } = await setup(argv);
    const seed = argv.seed ?? randomBytes(4).toString('hex');
    const seat = argv.seat;
    const file = argv.decisions ?? freeName(seed);
    const colour = process.stdout.isTTY === true && process.env.NO_COLOR === undefined && process.env.TERM !== 'dumb';
    const clear = process.stdout.isTTY === true ? '\x1b[H\x1b[2J' : '';
    const show = (lines: string[]) => process.stdout.write(`${clear}${lines.join('\n')}\n`);
    const writer = new DecisionsWriter(file, { seed, rules: rules.name, bots: names });
    const prompter = new Prompter();
    const hands = argv.hands ?? 1;
    // The match loop (a match), or hands 0…N−1 at their hands-mode positions.
    const match = argv.match ? new MatchStepper(rules, 0) : null;
    const scores = match?.scores ?? [0, 0, 0, 0];
    const handAt = (n: number): HandAt | null => (match ? match.next() : n < hands ? handPosition(n) : null);
    /** The command that replays a hand of this game exactly (with --check: a referee's finding). */
    // Runnable from anywhere: bot paths, a rules file and the decisions file made absolute, as in a run's replay commands.
    const replayOf = (at: HandAt, check = false) =>
      replayCommand({ ...at, seed, rules: rulesSpec, bots: names.map((n) => absoluteBotSpec(n)), decisions: resolve(file), check });
    let played = 0;
    /** The scores of the session so far, when more than one hand is or was to be played. */
    const finalScores = (): string =>
      played > 0 && (argv.match || hands > 1)
        ? `Scores after ${played} hand${played === 1 ? '' : 's'}: ${scores.map((p, s) => `${s === seat ? 'you' : `seat ${s} ${names[s]}`} ${p > 0 ? '+' : ''}${p}`).join(' · ')}\n`
        : '';
    try {
      for (let n = 0, at = handAt(0); at; at = handAt(++n)) {
        const handKey = at.handKey;
        const head: HandHead = { ...at, seed, rules: rules.name, reserve: rules.wallReserve, botNames: names };
        const session: Session = {
          label: argv.match ? `match hand ${n + 1}` : `hand ${n + 1} of ${hands}`,
          scores: argv.match || hands > 1 ? scores.slice() : null,
        };
        const replay = replayOf(at);
        const model = new HandModel(head);
        let frame: Frame | null = null;
        let log: string[] = [];
        let result: HandResult;
        try {
          result = await playHandLive({
            ...at,
            rules,
            seed,
            bots,
            botNames: names,
            scores: match ? scores.slice() : undefined,
            check: argv.check,
            trace: (step) => {
              frame = model.apply(step) ?? frame;
              const told = describe(step, head.dealer, seat);
              if (told !== null && step.type !== 'end') log.push(told);
            },
            ask: async (s, legal, view) => {
              show(decisionScreen({ head, frame: frame!, session, viewer: s, log, phase: view.phase, offered: view.offered, offeredBy: view.offeredBy, legal, colour, width: process.stdout.columns || 80 }));
              log = [];
              const hint = `choose 1-${legal.length}${view.phase === 'turn' ? ' (or type a tile to discard, e.g. 5m)' : ''}: `;
              for (;;) {
                const a = chooseAnswer(await prompter.ask(hint), legal);
                if (a !== null) {
                  writer.record(handKey, s, a);
                  return a;
                }
                process.stdout.write(`  not one of the choices: type a number from 1 to ${legal.length}\n`);
              }
            },
          });
        } catch (err) {
          // A bot's fault, or a referee's finding (--check): one line with the command that replays the hand.
          throw withReplay(err, replayOf);
        }
        writer.end(handKey, result);
        played++;
        if (match) match.record(result);
        else for (let s = 0; s < 4; s++) scores[s]! += result.deltas[s]!;
        const end = endScreen({ head, frame: frame!, session: { ...session, scores: session.scores && scores.slice() }, viewer: seat, colour });
        show([...end, '', 'Replay this hand exactly (add --html hand.html to step through it in a browser):', `  ${asTyped(replay)}`]);
        if (handAt(n + 1) && (await prompter.ask('Enter: next hand · q: quit ')).trim().toLowerCase().startsWith('q')) break;
      }
      process.stdout.write(`\n${finalScores()}your decisions are in ${file}\n`);
    } catch (err) {
      if (!(err instanceof Stopped)) throw err;
      process.stdout.write(`\ntw16 play: ${err.message}; ${finalScores() ? `${finalScores().trimEnd()}; ` : ''}your decisions so far are in ${file}\n`);
      process.exitCode = EXIT.INTERRUPTED;
    } finally {
      prompter.close();
      writer.close();
    }
  },
};
