/**
 * The screens of `tw16 play`, as lines of text: the table as one seat may see it (its own hand
 * sorted, the drawn tile apart; the others' melds, flowers and discards), the numbered legal
 * actions, and the end of a hand with every hand face-up. Tiles are always in MPSZ, coloured per
 * suit when `colour` is on. Pure functions of a hand view's frame (src/harness/view/handview.ts).
 */
import { formatTiles, suitOf, tileName, type Tile } from '../core/tiles.js';
import { ActionKind, actionKind, actionTile, formatAction, type Action } from '../engine/actions.js';
import type { DecisionPhase } from '../engine/types.js';
import { seatName, type Frame, type HandHead, type MeldView } from '../harness/view/handview.js';
import { PATTERN_NAMES, WIND_LETTERS } from '../rules/types.js';

/** ANSI colours per suit: characters red, dots blue, bamboo green, honours bold, flowers magenta. */
const SUIT_SGR = ['31', '34', '32', '1', '35'];

/** The text `s` in the colour of tile `t`'s suit. */
function ink(s: string, t: Tile, colour: boolean): string {
  return colour ? `\x1b[${SUIT_SGR[suitOf(t)]}m${s}\x1b[0m` : s;
}

/** Tiles one by one (`1m 2m 3m  4p`), two spaces between suits. */
export function tilesText(tiles: readonly Tile[], colour: boolean): string {
  return tiles.map((t, i) => (i > 0 ? (suitOf(t) !== suitOf(tiles[i - 1]!) ? '  ' : ' ') : '') + ink(tileName(t), t, colour)).join('');
}

/** A meld in MPSZ: `[123m]` claimed, `(2222p)` concealed kong, `(????)` another seat's concealed kong. */
function meldText(m: MeldView, hidden: boolean, colour: boolean): string {
  if (m.kind === 'concealed_kong') return hidden ? '(????)' : `(${ink(formatTiles(m.tiles), m.tiles[0]!, colour)})`;
  return `[${ink(formatTiles(m.tiles), m.tiles[0]!, colour)}]`;
}

/** An action, its tile coloured. */
function actionText(a: Action, colour: boolean): string {
  const text = formatAction(a);
  if (actionKind(a) === ActionKind.PASS) return text;
  const i = text.lastIndexOf(' ');
  return `${text.slice(0, i + 1)}${ink(text.slice(i + 1), actionTile(a), colour)}`;
}

/** Where a screen is in the session: `hand 2 of 4`, `match hand 5`, and the scores so far. */
export interface Session {
  readonly label: string;
  readonly scores: readonly number[] | null;
}

/** The first lines of every screen. */
function top(head: HandHead, frame: Frame, session: Session, viewer: number): string[] {
  const out = [
    `tw16 play · ${session.label} · seed ${head.seed} · rules ${head.rules} · round ${WIND_LETTERS[head.round]} · dealer ${seatName(head.dealer, head.dealer, viewer)} · streak ${head.streak} · wall ${frame.wall} drawable`,
  ];
  if (session.scores) out.push(`scores: ${session.scores.map((p, s) => `${seatName(s, head.dealer, viewer)} ${p > 0 ? '+' : ''}${p}`).join(' · ')}`);
  return out;
}

/** A seat's lines: who, melds and flowers, discards; its hand when `open` (else how many tiles it holds). */
function seatLines(head: HandHead, frame: Frame, s: number, viewer: number, open: boolean, colour: boolean): string[] {
  const q = frame.seats[s]!;
  const held = q.hand.length + (q.drawn >= 0 ? 1 : 0);
  const who = `${seatName(s, head.dealer, viewer)}${s === viewer ? `, seat ${s} (${WIND_LETTERS[(s - head.dealer + 4) & 3]})` : ` ${head.botNames[s] ?? ''}`}`;
  const tags = [who, ...(s === head.dealer ? ['dealer'] : []), ...(open ? [] : [`${held} in hand`]), ...(q.ready ? ['READY'] : [])];
  const melds = q.melds.map((m) => meldText(m, !open && s !== viewer, colour)).join(' ');
  const flowers = q.flowers.length ? `flowers ${tilesText(q.flowers, colour)}` : '';
  const out = [tags.join(' · ')];
  if (open) out.push(`   hand    ${tilesText(q.hand, colour)}${q.drawn >= 0 ? `   + ${ink(tileName(q.drawn), q.drawn, colour)}` : ''}`);
  if (melds || flowers) out.push(`   melds   ${[melds || '-', flowers].filter(Boolean).join('     ')}`);
  const river = q.discards.filter((d) => d.claimedBy < 0).map((d) => d.tile);
  out.push(`   river   ${river.length ? tilesText(river, colour).replace(/ {2}/g, ' ') : '-'}`);
  return out;
}

/** The numbered legal actions, several to a line. */
export function optionLines(legal: readonly Action[], colour: boolean, width = 80): string[] {
  const cells = legal.map((a, i) => ({ plain: `${String(i + 1).padStart(2)}) ${formatAction(a)}`, shown: `${String(i + 1).padStart(2)}) ${actionText(a, colour)}` }));
  const cell = Math.max(...cells.map((c) => c.plain.length)) + 3;
  const per = Math.max(1, Math.floor(width / cell));
  const out: string[] = [];
  for (let i = 0; i < cells.length; i += per) {
    out.push(
      cells
        .slice(i, i + per)
        .map((c) => c.shown + ' '.repeat(cell - c.plain.length))
        .join('')
        .trimEnd(),
    );
  }
  return out;
}

/** What is being asked: the seat's turn, or a discard / an added kong on offer. */
function question(head: HandHead, phase: DecisionPhase, offered: Tile, offeredBy: number, viewer: number, colour: boolean): string {
  if (phase === 'turn') return 'Your turn:';
  const tile = ink(tileName(offered), offered, colour);
  const by = seatName(offeredBy, head.dealer, viewer);
  return phase === 'claim' ? `${by} discarded ${tile}: claim it?` : `${by} adds ${tile} to a pung: rob the kong?`;
}

/** How much an event matters when space is short: others' plain draws least, then discards and draws, then the rest (claims, kongs, ready, flowers). */
function weight(e: string): number {
  if (/^seat \d \([ESWN]\) draws( a replacement)?$/.test(e)) return 0;
  if (/ (discards?|draws?) \S+$/.test(e) || /^you draw/.test(e)) return 1;
  return 2;
}

/**
 * What happened since the seat's last decision, every event, joined with ` · ` and wrapped to
 * `width` columns. Past `maxLines` lines, events are left out by weight, oldest first: the others'
 * plain draws (they show in the counts of tiles held), then plain discards and draws; a claim, a
 * kong, a flower, a ready declaration goes last.
 */
export function eventLines(log: readonly string[], width: number, maxLines = 6): string[] {
  const wrap = (items: readonly string[], lead: string): string[] => {
    const lines: string[] = [];
    let cur = lead;
    for (const e of items) {
      const add = cur === lead ? e : ` · ${e}`;
      if (cur !== lead && cur.length + add.length > width) {
        lines.push(cur);
        cur = e;
      } else cur += add;
    }
    if (cur) lines.push(cur);
    return lines;
  };
  if (log.length === 0) return [];
  const lines = wrap(log, '');
  if (lines.length <= maxLines) return lines;
  const kept = log.map((e, i) => ({ e, i, w: weight(e) }));
  // Drop the lowest weight first, the oldest of it first, until it fits.
  const order = [...kept].sort((a, b) => a.w - b.w || a.i - b.i);
  const gone = new Set<number>();
  for (const x of order) {
    gone.add(x.i);
    const shown = kept.filter((k) => !gone.has(k.i)).map((k) => k.e);
    const out = wrap(shown, `(${gone.size} not shown: others' draws, then discards, oldest first) `);
    if (out.length <= maxLines || shown.length <= 1) return out;
  }
  return [];
}

/** The screen of one decision of seat `viewer`. */
export function decisionScreen(input: {
  head: HandHead;
  frame: Frame;
  session: Session;
  viewer: number;
  log: readonly string[];
  phase: DecisionPhase;
  offered: Tile;
  offeredBy: number;
  legal: readonly Action[];
  colour: boolean;
  width: number;
}): string[] {
  const { head, frame, viewer, colour } = input;
  const out = [...top(head, frame, input.session, viewer), ''];
  for (let k = 1; k < 4; k++) out.push(...seatLines(head, frame, (viewer + k) & 3, viewer, false, colour));
  out.push('', ...seatLines(head, frame, viewer, viewer, true, colour));
  out.push('', 'honours: 1z E · 2z S · 3z W · 4z N · 5z Wh · 6z Gr · 7z Rd', '');
  const events = eventLines(input.log, input.width);
  if (events.length) out.push(...events, '');
  out.push(question(head, input.phase, input.offered, input.offeredBy, viewer, colour), ...optionLines(input.legal, colour, input.width));
  return out;
}

/** The end of a hand: every hand face-up, the winners' patterns and tai, the payments. */
export function endScreen(input: { head: HandHead; frame: Frame; session: Session; viewer: number; colour: boolean }): string[] {
  const { head, frame, viewer, colour } = input;
  const r = frame.result!;
  const who = (s: number) => seatName(s, head.dealer, viewer);
  const out = [...top(head, frame, input.session, viewer), '', `Hand over: ${frame.text}`, ''];
  for (let s = 0; s < 4; s++) out.push(...seatLines(head, frame, s, viewer, true, colour));
  out.push('');
  for (const w of r.winners) {
    const pats = w.patterns.map(([id, tai]) => `${id} ${PATTERN_NAMES[id]} ${tai}`).join(', ');
    out.push(`${who(w.seat)}: ${w.tai} tai${pats ? ` (${pats})` : ''}${w.ready ? ', +1 for declaring ready' : ''}`);
  }
  out.push(`payments: ${r.deltas.map((d, s) => `seat ${s} (${WIND_LETTERS[(s - head.dealer + 4) & 3]}) ${d > 0 ? '+' : ''}${d}`).join(', ')}`);
  return out;
}
