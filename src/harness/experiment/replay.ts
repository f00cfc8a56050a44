/**
 * The `tw16 replay` command of a hand: formatted here, once, from the engine's position of the
 * hand (HandAt) and what the harness knows of the rest (seed, the rule profile as the user names
 * it — a name, a file, inline JSON —, the bots by seat). The engine never formats a command and
 * nothing parses one back. A fault that names its hand (a BotError, a referee's InvariantError)
 * is reported with this command after it.
 */
import { shellQuote } from '../../core/shell.js';
import { BotError, InvariantError, type HandAt } from '../../engine/types.js';
import { WIND_LETTERS } from '../../rules/types.js';

/** A hand as `tw16 replay` takes it. */
export interface ReplayHand extends HandAt {
  readonly seed: string;
  /** The rule profile as `--rules` takes it: a name, a JSON file (absolute), or inline JSON. */
  readonly rules: string;
  /** The players by seat as `--bots` takes them: names, module paths, `cmd:` programs, `human`. */
  readonly bots: readonly string[];
  /** The decisions file of the `human` seats. */
  readonly decisions?: string;
  /** Replay with both referees on (`--check`): for a referee's finding. */
  readonly check?: boolean;
}

/** The `tw16 replay` command that plays `h` again, quoted for a shell. */
export function replayCommand(h: ReplayHand): string {
  return (
    `tw16 replay --seed ${shellQuote(h.seed)} --hand ${h.handKey} --rules ${shellQuote(h.rules)} --bots ${shellQuote(h.bots.join(','))}` +
    ` --dealer ${h.dealer} --round ${WIND_LETTERS[h.round]} --streak ${h.streak}` +
    (h.decisions !== undefined ? ` --decisions ${shellQuote(h.decisions)}` : '') +
    (h.check ? ' --check' : '')
  );
}

/**
 * The message of `err` with, when it names a hand (a BotError; an InvariantError a referee found
 * during a hand), `; reproduce: ` and the command `replay` makes of that hand (`check`: a referee's
 * finding, to replay with --check). Any other error's message as it is.
 */
export function faultMessage(err: unknown, replay: (at: HandAt, check: boolean) => string): string {
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof BotError) return `${text}; reproduce: ${replay(err.at, false)}`;
  if (err instanceof InvariantError && err.at) return `${text}; reproduce: ${replay(err.at, true)}`;
  return text;
}

/** `err` with its message made `faultMessage(err, replay)`, for a command to throw on (its class, so its exit code, kept). */
export function withReplay(err: unknown, replay: (at: HandAt, check: boolean) => string): unknown {
  if (err instanceof Error) err.message = faultMessage(err, replay);
  return err;
}
