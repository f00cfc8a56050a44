/**
 * Hands in notation, for the CLI and fixtures: `"456789m234p45s99s [123m] (2222p) 15f"`.
 *
 * Plain tiles are the concealed hand (without the winning tile); `[…]` is a claimed set
 * (3 tiles: chow or pung; 4 identical: exposed kong); `(…)` is a concealed kong (4
 * identical tiles, or one tile standing for the four); tiles with the suit `f` are flowers.
 */
import { KINDS, FLOWER_BASE, formatTiles, parseTiles, tileName, type Tile } from '../core/tiles.js';
import type { Meld, Wind } from './types.js';
import { InputError } from '../core/errors.js';

/** Bad notation: one line naming the field and what is wrong (exit code 2 at the CLI). */
export class HandNotationError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'HandNotationError';
  }
}

/** The tiles of a hand string, split by role. */
export interface ParsedHand {
  /** 34 counts of the concealed tiles (without the winning tile). */
  readonly concealed: Uint8Array;
  readonly melds: Meld[];
  readonly concealedKongs: Tile[];
  readonly flowers: Tile[];
}

function tilesOf(text: string, field: string): Tile[] {
  try {
    return parseTiles(text, { checkCopies: false });
  } catch (e) {
    throw new HandNotationError(`${field}: ${(e as Error).message}`);
  }
}

/** A claimed set from notation: `123m` chow, `555p` pung, `2222p` exposed kong. */
export function parseMeld(text: string, field = 'meld'): Meld {
  const t = tilesOf(text, field).sort((a, b) => a - b);
  if (t.some((x) => x >= KINDS)) throw new HandNotationError(`${field}: "${text}" contains a flower`);
  const same = t.every((x) => x === t[0]);
  if (t.length === 3 && same) return { kind: 'pung', tile: t[0]! };
  if (t.length === 4 && same) return { kind: 'kong', tile: t[0]! };
  if (t.length === 3 && t[0]! < 27 && t[0]! % 9 <= 6 && t[1] === t[0]! + 1 && t[2] === t[0]! + 2) return { kind: 'chow', tile: t[0]! };
  throw new HandNotationError(`${field}: "${text}" is not a chow, pung or kong`);
}

/** A concealed kong from notation: `2222p` (or `2p` for short). Returns its tile. */
export function parseConcealedKong(text: string, field = 'concealed kong'): Tile {
  const t = tilesOf(text, field);
  if ((t.length === 4 || t.length === 1) && t.every((x) => x === t[0]) && t[0]! < KINDS) return t[0]!;
  throw new HandNotationError(`${field}: "${text}" is not a kong (four identical tiles)`);
}

/** Flowers from notation, e.g. `15f`; anything but 1f–8f is an error. */
export function parseFlowers(text: string, field = 'flowers'): Tile[] {
  const t = tilesOf(text, field);
  const bad = t.find((x) => x < FLOWER_BASE);
  if (bad !== undefined) throw new HandNotationError(`${field}: ${tileName(bad)} is not a flower`);
  return t;
}

/** Concealed tiles from notation (no flowers) as 34 counts. */
export function parseConcealed(text: string, field = 'concealed'): Uint8Array {
  const counts = new Uint8Array(KINDS);
  for (const x of tilesOf(text, field)) {
    if (x >= KINDS) throw new HandNotationError(`${field}: ${tileName(x)} is a flower; flowers go in flowers`);
    counts[x]!++;
  }
  return counts;
}

/** Parse a whole hand string: plain tiles, `[claimed]`, `(concealed kong)` and flowers. */
export function parseHand(text: string): ParsedHand {
  const concealed = new Uint8Array(KINDS);
  const melds: Meld[] = [];
  const concealedKongs: Tile[] = [];
  const flowers: Tile[] = [];
  const token = /\[([^\]]*)\]|\(([^)]*)\)|([^[\]()\s]+)|(\S)/g;
  for (let m = token.exec(text); m; m = token.exec(text)) {
    if (m[1] !== undefined) melds.push(parseMeld(m[1], `hand: [${m[1]}]`));
    else if (m[2] !== undefined) concealedKongs.push(parseConcealedKong(m[2], `hand: (${m[2]})`));
    else if (m[3] !== undefined) {
      for (const x of tilesOf(m[3], `hand: ${m[3]}`)) {
        if (x >= KINDS) flowers.push(x);
        else concealed[x]!++;
      }
    } else throw new HandNotationError(`hand: unbalanced "${m[4]}" at position ${m.index + 1}`);
  }
  return { concealed, melds, concealedKongs, flowers };
}

/** A claimed set in notation: `123m`, `555p`, `2222p` (the inverse of parseMeld). */
export function formatMeld(m: Meld): string {
  const n = m.kind === 'kong' ? 4 : 3;
  return formatTiles(Array.from({ length: n }, (_, i) => (m.kind === 'chow' ? m.tile + i : m.tile)));
}

/**
 * A hand in the notation parseHand reads (and `tw16 score` takes): the concealed tiles, each
 * claimed set in `[…]`, each concealed kong in `(…)`, then the flowers.
 */
export function formatHand(h: { readonly concealed: ArrayLike<number>; readonly melds: readonly Meld[]; readonly concealedKongs: readonly Tile[]; readonly flowers: readonly Tile[] }): string {
  const tiles: Tile[] = [];
  for (let t = 0; t < KINDS; t++) for (let k = 0; k < h.concealed[t]!; k++) tiles.push(t);
  const parts = tiles.length ? [formatTiles(tiles)] : [];
  for (const m of h.melds) parts.push(`[${formatMeld(m)}]`);
  for (const k of h.concealedKongs) parts.push(`(${formatTiles([k, k, k, k])})`);
  if (h.flowers.length) parts.push(formatTiles([...h.flowers].sort((a, b) => a - b)));
  return parts.join(' ');
}

/**
 * Check that a hand plus its winning tile is a possible 17-tile hand: the right number of
 * concealed tiles for the sets laid down, at most four of a kind, each flower once.
 * Throws HandNotationError naming the field.
 */
export function checkTileCounts(h: ParsedHand, win: Tile, fieldPrefix = ''): void {
  const laid = h.melds.length + h.concealedKongs.length;
  let n = 0;
  for (let t = 0; t < KINDS; t++) n += h.concealed[t]!;
  if (laid > 5) throw new HandNotationError(`${fieldPrefix}melds: ${laid} sets laid down (at most 5)`);
  const want = 16 - 3 * laid;
  if (n !== want) {
    throw new HandNotationError(`${fieldPrefix}concealed: ${n} tiles, expected ${want} with ${laid} set(s) laid down (the winning tile goes in win)`);
  }
  const all = Uint8Array.from(h.concealed);
  all[win]!++;
  for (const m of h.melds) {
    if (m.kind === 'chow') for (let k = 0; k < 3; k++) all[m.tile + k]!++;
    else all[m.tile]! += m.kind === 'kong' ? 4 : 3;
  }
  for (const t of h.concealedKongs) all[t]! += 4;
  for (let t = 0; t < KINDS; t++) {
    if (all[t]! > 4) throw new HandNotationError(`${fieldPrefix}tiles: ${all[t]} copies of ${tileName(t)} in hand, melds and win (at most 4)`);
  }
  const seen = new Set<Tile>();
  for (const f of h.flowers) {
    if (seen.has(f)) throw new HandNotationError(`${fieldPrefix}flowers: ${tileName(f)} twice`);
    seen.add(f);
  }
}

/** A wind from `E`/`S`/`W`/`N` (any case). */
export function parseWind(text: unknown, field: string): Wind {
  const i = typeof text === 'string' ? 'ESWN'.indexOf(text.toUpperCase()) : -1;
  if (typeof text !== 'string' || text.length !== 1 || i < 0) {
    throw new HandNotationError(`${field}: expected E, S, W or N (got ${JSON.stringify(text)})`);
  }
  return i as Wind;
}
