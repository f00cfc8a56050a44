/**
 * A wins.arrow row back into the scorer's WinFacts, so any stored win can be re-scored
 * (under its own profile to check it, or another to ask "what if").
 */
import { shellQuote } from '../../core/shell.js';
import { parseTile, tileName } from '../../core/tiles.js';
import { formatHand, parseConcealed, parseConcealedKong, parseFlowers, parseMeld } from '../../rules/notation.js';
import { WIND_LETTERS, type WinFacts, type Wind } from '../../rules/types.js';

/** The columns of a wins.arrow row that describe the hand. */
export interface WinRow {
  readonly concealed: string;
  readonly melds: string;
  readonly concealed_kongs: string;
  readonly flowers: string;
  readonly win_tile: string;
  readonly self_drawn: boolean;
  readonly wind_seat: number;
  readonly wind_round: number;
  readonly last_tile: boolean;
  readonly after_kong: boolean;
  readonly robbed_kong: boolean;
  readonly heavenly: boolean;
}

const groups = (s: string): string[] => s.split(' ').filter((g) => g.length > 0);

/** The facts of a stored win. An instant flower win (no winning tile) has `win` −1. */
export function winFactsFromRow(r: WinRow): WinFacts {
  return {
    concealed: parseConcealed(r.concealed),
    melds: groups(r.melds).map((g) => parseMeld(g)),
    concealedKongs: groups(r.concealed_kongs).map((g) => parseConcealedKong(g)),
    flowers: r.flowers ? parseFlowers(r.flowers) : [],
    win: r.win_tile ? parseTile(r.win_tile) : -1,
    selfDraw: r.self_drawn,
    seat: r.wind_seat as Wind,
    round: r.wind_round as Wind,
    lastTile: r.last_tile,
    afterKong: r.after_kong,
    robKong: r.robbed_kong,
    heavenly: r.heavenly,
  };
}

/** What settles a win besides its facts: who paid it (a discard win) and the hand's extras. */
export interface WinSettlement {
  /** The discarder's seat wind, for a win on a discard or a robbed kong. */
  readonly discarder?: Wind;
  readonly streak: number;
  readonly ready: boolean;
  readonly base: number;
  readonly perTai: number;
}

/**
 * The `tw16 score` command that scores (and settles) one win under `rules` (a profile name,
 * file or inline JSON), as printed for a person; null for an instant flower win, which has no
 * hand to score.
 */
export function scoreCommand(f: WinFacts, s: WinSettlement, rules: string): string | null {
  if (f.win < 0) return null;
  const words = ['tw16', 'score', formatHand(f), '--win', tileName(f.win)];
  if (f.selfDraw && !f.heavenly) words.push('--self-draw');
  words.push('--seat', WIND_LETTERS[f.seat], '--round', WIND_LETTERS[f.round]);
  if (f.lastTile) words.push('--last-tile');
  if (f.afterKong) words.push('--after-kong');
  if (f.robKong) words.push('--rob-kong');
  if (f.heavenly) words.push('--heavenly');
  if (s.discarder !== undefined && !f.selfDraw) words.push('--discarder', WIND_LETTERS[s.discarder]);
  if (s.streak > 0) words.push('--streak', String(s.streak));
  if (s.ready) words.push('--ready');
  if (s.base !== 1) words.push('--base', String(s.base));
  if (s.perTai !== 1) words.push('--per-tai', String(s.perTai));
  words.push('--rules', rules);
  return words.map(shellQuote).join(' ');
}
