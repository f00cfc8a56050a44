/**
 * `tw16 replay`: play one hand again and print every step in MPSZ.
 *
 *   tw16 replay --seed S --hand K [--rules p0|…|FILE.json|JSON] [--bots a,b,c,d]
 *               [--dealer D --round E|S|W|N --streak N] [--base B --per-tai P]
 *               [--decisions FILE] [--html FILE] [--check]
 *
 * The hand is a pure function of (seed, hand key, rules, bots, dealer, round, streak), so
 * this prints exactly what happened in a run. Without --dealer/--round the hands-mode
 * position of the key is used (engine `handPosition`): dealer = K mod 4, round = ⌊K / 4⌋ mod 4.
 * --check runs both referees after every step; a finding is an internal error (exit 70).
 */
import type { ArgumentsCamelCase, Argv } from 'yargs';
import { formatTiles, tileName } from '../core/tiles.js';
import { formatAction, actionKind, ActionKind } from '../engine/actions.js';
import { playHand } from '../engine/hand.js';
import { handPosition } from '../engine/match.js';
import type { BotFactory, HandAt, HandResult, Step } from '../engine/types.js';
import { formatHand, getProfile, WIND_LETTERS, PATTERN_NAMES, type Wind, type PatternId } from '../rules/index.js';
import { UsageError } from '../core/errors.js';
import { replayCommand as replayLine, withReplay } from '../harness/experiment/replay.js';
import { decisionsCause, loadSeatBots } from '../harness/view/decisions.js';
import type { HandHead } from '../harness/view/handview.js';
import { writeHandPage } from '../harness/view/viewer.js';
import { rulesFlag, timeoutMs, timeoutOption } from './flags.js';
import { asTyped } from './invocation.js';
import { scoreCommand } from '../harness/results/winrow.js';
import { resolve } from 'node:path';
import { lineUp } from '../harness/experiment/experiment.js';
import { splitBotList } from '../harness/players/command.js';
import type { CommandBody } from './command.js';

export { rulesFlag };

interface ReplayArgs {
  seed: string;
  hand: number;
  rules: string;
  bots: string;
  dealer?: number;
  round?: string;
  streak: number;
  base?: number;
  perTai?: number;
  decisions?: string;
  html?: string;
  check: boolean;
  decisionTimeout: number;
}

function builder(y: Argv): Argv<ReplayArgs> {
  return y
    .option('seed', { type: 'string', demandOption: true, describe: 'experiment seed' })
    .option('hand', { type: 'number', demandOption: true, describe: 'hand key' })
    .option('rules', { type: 'string', default: 'p0', describe: 'rule profile: a name, a JSON file, or inline JSON like \'{"extends": "p0", "minTai": 1}\'' })
    .option('bots', {
      type: 'string',
      default: 'random',
      describe: "bots by seat, comma-separated, as tw16 run seats them: one fills every seat, two alternate (A B A B), three repeat the first (A B C A); names, module paths ([NAME=]PATH) or programs ('cmd:python3 bot.py')",
    })
    .option('dealer', { type: 'number', describe: 'dealer seat 0–3 (default: hand key mod 4)' })
    .option('round', { type: 'string', describe: 'round wind E S W N (default: from the hand key)' })
    .option('streak', { type: 'number', default: 0, describe: "dealer's streak" })
    .option('base', { type: 'number', describe: 'base units per payment' })
    .option('per-tai', { type: 'number', describe: 'units per tai' })
    .option('decisions', { type: 'string', describe: 'decisions file of the seats named "human" in --bots (written by tw16 play)' })
    .option('html', { type: 'string', describe: 'also write the hand as a self-contained HTML viewer page to this file' })
    .option('check', { type: 'boolean', default: false, describe: 'run both referees (bookkeeping and rules checkers) after every step; a finding is a bug in tw16 (exit 70)' })
    .option('decision-timeout', timeoutOption) as unknown as Argv<ReplayArgs>;
}

/** Parse the replay arguments into a playHand setup (throws UsageError on bad input). */
export async function replaySetup(argv: ReplayArgs): Promise<{
  rules: ReturnType<typeof getProfile>;
  bots: BotFactory[];
  botNames: string[];
  dealer: number;
  round: Wind;
  /** Throws unless the replay of `hand` used every recorded decision and ended as recorded. */
  verify(hand: number, result: HandResult): void;
}> {
  // As tw16 run records them: a hand key is a uint32 (results/README.md), stakes whole numbers ≥ 0.
  if (!Number.isSafeInteger(argv.hand) || argv.hand < 0 || argv.hand > 0xffffffff) throw new UsageError(`--hand must be a hand key, a whole number 0–4,294,967,295 (uint32, as runs record them), got ${argv.hand}`);
  for (const [flag, v] of [['--base', argv.base], ['--per-tai', argv.perTai]] as const) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 0)) throw new UsageError(`${flag} must be a whole number ≥ 0 (as an experiment's stakes), got ${v}`);
  }
  const rules = rulesFlag(argv.rules);
  // As tw16 run seats a roster: one bot in every seat, two alternating (A B A B), three with the first again (A B C A).
  const given = splitBotList(argv.bots);
  if (given.length > 4 || given.some((n) => n === '')) throw new UsageError(`--bots needs 1 to 4 bots by seat, comma-separated; got "${argv.bots}"`);
  const names = lineUp(given.length).map((i) => given[i]!);
  const { bots, verify } = await loadSeatBots(names, argv.decisions, { seed: argv.seed, rules: rules.name }, { timeoutMs: timeoutMs(argv.decisionTimeout) });
  const position = handPosition(argv.hand);
  const dealer = argv.dealer ?? position.dealer;
  if (!Number.isInteger(dealer) || dealer < 0 || dealer > 3) throw new UsageError(`--dealer must be a seat 0–3, got ${argv.dealer}`);
  let round: Wind;
  if (argv.round === undefined) round = position.round;
  else {
    const i = WIND_LETTERS.indexOf(argv.round.toUpperCase() as 'E');
    if (i < 0) throw new UsageError(`--round must be one of E S W N, got "${argv.round}"`);
    round = i as Wind;
  }
  if (!Number.isInteger(argv.streak) || argv.streak < 0) throw new UsageError(`--streak must be a non-negative integer, got ${argv.streak}`);
  return { rules, bots, botNames: names, dealer, round, verify };
}

/** The lines of a replay: a header, then one line per step. */
export function formatReplay(
  steps: readonly Step[],
  head: Omit<HandHead, 'reserve'>,
  /** The `--rules` (and stakes) each win's `tw16 score` command names; none printed without it. */
  score?: { readonly rules: string; readonly base: number; readonly perTai: number },
): string[] {
  const wind = (s: number) => WIND_LETTERS[(s - head.dealer + 4) & 3];
  const who = (s: number) => `seat ${s} (${wind(s)})`;
  const out: string[] = [
    `hand ${head.handKey} · seed ${head.seed} · rules ${head.rules} · dealer seat ${head.dealer} · round ${WIND_LETTERS[head.round]} · streak ${head.streak}`,
    `bots: ${head.botNames.map((n, s) => `${who(s)} ${n}`).join(', ')}`,
  ];
  for (const st of steps) {
    switch (st.type) {
      case 'deal':
        for (let s = 0; s < 4; s++) out.push(`deal    ${who(s)}: ${formatTiles(st.hands[s]!)}`);
        break;
      case 'draw':
        out.push(`draw    ${who(st.seat)}: ${tileName(st.tile)}${st.from === 'back' ? ' (replacement, from the back)' : ''}`);
        break;
      case 'flower':
        out.push(`flower  ${who(st.seat)}: shows ${tileName(st.tile)}`);
        break;
      case 'action': {
        const k = actionKind(st.action);
        if (st.phase !== 'turn' && k === ActionKind.PASS) break; // passes in a window are noise
        const verb = st.phase === 'turn' ? '' : st.phase === 'rob' ? ' (rob window)' : ' (claim window)';
        out.push(`${st.phase !== 'turn' ? 'answer ' : k === ActionKind.DISCARD || k === ActionKind.READY ? 'discard' : 'declare'} ${who(st.seat)}: ${formatAction(st.action)}${verb}`);
        break;
      }
      case 'claim':
        out.push(`claim   ${who(st.seat)}: ${formatAction(st.action)} from ${who(st.from)}`);
        break;
      case 'end':
        out.push(...formatResult(st.result, who, head.dealer, score));
        break;
    }
  }
  return out;
}

function formatResult(r: HandResult, who: (s: number) => string, dealer: number, score?: { readonly rules: string; readonly base: number; readonly perTai: number }): string[] {
  const out: string[] = [];
  if (r.outcome === 'draw') out.push(`drawn hand (流局): ${r.wallLeft} drawable tiles left, ${r.turns} discards`);
  for (const w of r.winners) {
    const pats = Object.entries(w.patterns)
      .map(([id, tai]) => `${id} ${PATTERN_NAMES[id as PatternId]} ${tai}`)
      .join(', ');
    const how =
      r.outcome === 'self_draw'
        ? `self-draw on ${tileName(r.winningTile)}`
        : r.outcome === 'win'
          ? `on ${tileName(r.winningTile)} from ${who(r.discarder)}${w.facts.robKong ? ' (robbing the kong)' : ''}`
          : `instant flower win${r.discarder >= 0 ? ` (${who(r.discarder)} pays)` : ''}`;
    // The hand as tw16 score reads it: concealed tiles, [claimed sets], (concealed kongs), flowers.
    const hand = `${formatHand(w.facts)}${w.facts.win >= 0 ? `  win ${tileName(w.facts.win)}` : ''}`;
    out.push(`win     ${who(w.seat)} ${how}: ${hand}`.trimEnd());
    out.push(`        ${w.tai} tai${pats ? `: ${pats}` : ''}${w.ready ? ' (+1 ready)' : ''}`);
    const cmd = score && scoreCommand(w.facts, { ...(r.discarder >= 0 && r.outcome !== 'self_draw' ? { discarder: ((r.discarder - dealer + 4) & 3) as Wind } : {}), streak: r.streak, ready: w.ready, base: score.base, perTai: score.perTai }, score.rules);
    if (cmd) out.push(`        score it: ${cmd}`);
  }
  for (const s of r.falseWins) out.push(`false   ${who(s)} declared a win that is not one: FALSE WIN (penalty)`);
  out.push(`payments: ${r.deltas.map((d, s) => `${who(s)} ${d > 0 ? '+' : ''}${d}`).join(', ')}`);
  return out;
}

/** `tw16 replay`. */
export const replayCommand: CommandBody<ReplayArgs> = {
  builder,
  handler: async (argv: ArgumentsCamelCase<ReplayArgs>) => {
    const setup = await replaySetup(argv);
    const steps: Step[] = [];
    const head = { seed: argv.seed, handKey: argv.hand, rules: setup.rules.name, botNames: setup.botNames, dealer: setup.dealer, round: setup.round, streak: argv.streak };
    let error: string | undefined;
    try {
      const result = playHand({
        rules: setup.rules,
        seed: argv.seed,
        handKey: argv.hand,
        dealer: setup.dealer,
        round: setup.round,
        streak: argv.streak,
        bots: setup.bots,
        botNames: setup.botNames,
        base: argv.base,
        perTai: argv.perTai,
        check: argv.check,
        trace: (s) => steps.push(s),
      });
      setup.verify(argv.hand, result);
    } catch (err) {
      error = (err as Error).message;
      // A bot's fault or a referee's finding: one line, with the command that replays this hand.
      const again = (at: HandAt, check: boolean) =>
        replayLine({ ...at, seed: argv.seed, rules: argv.rules, bots: setup.botNames, ...(argv.decisions !== undefined ? { decisions: argv.decisions } : {}), check: check || argv.check });
      throw withReplay(decisionsCause(err), again);
    } finally {
      // On a bot error the steps up to it are printed (and drawn), then main reports the error.
      const score = { rules: argv.rules.endsWith('.json') ? resolve(argv.rules) : argv.rules, base: argv.base ?? setup.rules.base, perTai: argv.perTai ?? setup.rules.perTai };
      process.stdout.write(asTyped(formatReplay(steps, head, score).join('\n') + '\n'));
      if (argv.html !== undefined) writeHandPage(argv.html, { head: { ...head, reserve: setup.rules.wallReserve }, steps, error });
    }
  },
};
