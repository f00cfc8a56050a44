/**
 * A wins.arrow row back into the scorer's WinFacts, so any stored win can be re-scored
 * (under its own profile to check it, or another to ask "what if").
 */
import { parseTile } from '../../core/tiles.js';
import { parseConcealed, parseConcealedKong, parseFlowers, parseMeld } from '../../rules/notation.js';
import type { WinFacts, Wind } from '../../rules/types.js';

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
