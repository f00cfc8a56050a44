/** Test helpers: prepared walls and scripted bots. */
import { parseTiles, FLOWER_BASE, KINDS, type Tile } from '../../src/core/tiles.js';
import { ActionKind, actionKind, actionTile, action, PASS, type Action, type BotFactory, type View, type Step } from '../../src/engine/index.js';

export interface WallPlan {
  /** Dealer seat (default 0). */
  dealer?: number;
  /** Concealed tiles dealt by seat index (16; the dealer's string has 17, its 17th last). Flowers allowed. */
  hands: [string, string, string, string];
  /** Tiles drawn from the front after the deal, in order. */
  draws?: string;
  /** Replacement tiles from the back, in the order they are taken. */
  back?: string;
  /** Tiles that are the last ones drawn from the front (just before the reserve and the back region), in order. */
  last?: string;
  /** The profile's reserve: tiles left undrawn before the back region (default 0). */
  reserve?: number;
}

/** Junk hands with no pair and no run, for seats a scenario does not involve (seat 3's is a 9-run: 123456789m). */
export const JUNK = ['147m147p147s1234567z', '258m258p258s1234567z', '369m369p369s1234567z', '1234567z123456789m'] as const;

/**
 * A 144-tile wall laid out for `plan`. Tiles not placed are put in the middle: non-flowers
 * in id order, flowers in the centre of that run (so scripted hands rarely meet them).
 */
export function wallFrom(plan: WallPlan): Tile[] {
  const d = plan.dealer ?? 0;
  const hands = plan.hands.map((h) => parseTiles(h, { checkCopies: false }));
  for (let s = 0; s < 4; s++) {
    const want = s === d ? 17 : 16;
    if (hands[s]!.length !== want) throw new Error(`seat ${s} hand has ${hands[s]!.length} tiles, want ${want}`);
  }
  const front: Tile[] = [];
  for (let k = 0; k < 4; k++) front.push(...hands[(d + k) & 3]!.slice(0, 16));
  front.push(hands[d]![16]!);
  front.push(...parseTiles(plan.draws ?? '', { checkCopies: false }));
  const last = parseTiles(plan.last ?? '', { checkCopies: false });
  const back = parseTiles(plan.back ?? '', { checkCopies: false });
  const used = new Uint8Array(FLOWER_BASE + 8);
  for (const t of [...front, ...last, ...back]) used[t]!++;
  const rest: Tile[] = [];
  const flowers: Tile[] = [];
  for (let t = 0; t < FLOWER_BASE + 8; t++) {
    const left = (t < KINDS ? 4 : 1) - used[t]!;
    if (left < 0) throw new Error(`too many copies of tile ${t} in the plan`);
    for (let i = 0; i < left; i++) (t < KINDS ? rest : flowers).push(t);
  }
  const mid = rest.length >> 1;
  const middle = [...rest.slice(0, mid), ...flowers, ...rest.slice(mid)];
  // The reserve is taken from the end of the middle (non-flowers), after `last`.
  const reserve = middle.splice(middle.length - (plan.reserve ?? 0));
  return [...front, ...middle, ...last, ...reserve, ...back.slice().reverse()];
}

/** A decision policy: return an action, or undefined for the default. */
export type Policy = (view: View, legal: readonly Action[]) => Action | undefined;

/** Default: pass in windows; in a turn discard the drawn tile (else the first discard). Never wins. */
export function defaultAction(view: View, legal: readonly Action[]): Action {
  if (view.phase !== 'turn') return PASS;
  const drawn = action(ActionKind.DISCARD, view.drawn);
  if (view.drawn >= 0 && legal.includes(drawn)) return drawn;
  return legal.find((a) => actionKind(a) === ActionKind.DISCARD)!;
}

/** A bot that follows `policy`, falling back to the default. */
export function scripted(policy?: Policy): BotFactory {
  return () => ({ decide: (view, legal) => policy?.(view, legal) ?? defaultAction(view, legal) });
}

/** Take a win whenever legal. */
export const winner: Policy = (_v, legal) => legal.find((a) => actionKind(a) === ActionKind.WIN);

/** The action `kind` on tile `tile` if legal. */
export function pick(legal: readonly Action[], kind: number, tile: Tile): Action | undefined {
  return legal.find((a) => actionKind(a) === kind && actionTile(a) === tile);
}

/** Collect steps. */
export function recorder(): { steps: Step[]; trace: (s: Step) => void } {
  const steps: Step[] = [];
  return { steps, trace: (s) => steps.push(s) };
}
