/**
 * Actions: one small integer each, `kind * 64 + tile`, so legal-action lists are plain
 * sorted number arrays (deterministic order: by kind, then tile) and nothing is
 * allocated per decision. `tile` is the tile the action is about: the discard, the
 * kong/pung tile, the lowest tile of a chow, the winning tile.
 */
import { tileName, type Tile } from '../core/tiles.js';

/** An action as `kind * 64 + tile` (see ActionKind). */
export type Action = number;

/** The kinds of action, in the sort order of legal-action lists. */
export const ActionKind = {
  /** Let a discard (or an added kong) go by. Tile 0. */
  PASS: 0,
  /** Declare a win: self-drawn in a turn, on the discard in a claim window, robbing in a rob window. */
  WIN: 1,
  /** Discard a tile. */
  DISCARD: 2,
  /** Discard a tile and declare ready (profiles with ready declaration). */
  READY: 3,
  /** Declare a concealed kong of four tiles in hand. */
  CONCEALED_KONG: 4,
  /** Add the drawn/held fourth tile to an exposed pung. */
  ADDED_KONG: 5,
  /** Claim a discard for a kong with three in hand. */
  KONG: 6,
  /** Claim a discard for a pung with two in hand. */
  PUNG: 7,
  /** Claim the previous seat's discard for a chow; tile = the chow's lowest tile. */
  CHOW: 8,
} as const;

/** One of the ActionKind values. */
export type ActionKindId = (typeof ActionKind)[keyof typeof ActionKind];

const KIND_NAMES = ['pass', 'win', 'discard', 'ready', 'concealed_kong', 'added_kong', 'kong', 'pung', 'chow'] as const;

/** The action of `kind` about `tile`. */
export function action(kind: ActionKindId, tile: Tile = 0): Action {
  return kind * 64 + tile;
}
/** The kind of an action (an ActionKind value). */
export function actionKind(a: Action): ActionKindId {
  return (a >> 6) as ActionKindId;
}
/** The tile of an action. */
export function actionTile(a: Action): Tile {
  return a & 63;
}
/** The pass action. */
export const PASS: Action = 0;

/** Is `a` a well-formed action number (known kind, tile 0–33)? */
export function isAction(a: unknown): a is Action {
  return typeof a === 'number' && Number.isInteger(a) && a >= 0 && (a >> 6) < KIND_NAMES.length && (a & 63) < 34;
}

/** A readable action, e.g. `discard 5m`, `chow 345p`, `pass`. Unknown values print as `?<n>`. */
export function formatAction(a: unknown): string {
  if (!isAction(a)) return `?${typeof a === 'number' ? a : JSON.stringify(a) ?? String(a)}`;
  const k = actionKind(a);
  const t = actionTile(a);
  if (k === ActionKind.PASS) return 'pass';
  if (k === ActionKind.CHOW) return `chow ${(t % 9) + 1}${(t % 9) + 2}${(t % 9) + 3}${'mps'[(t / 9) | 0]}`;
  return `${KIND_NAMES[k]} ${tileName(t)}`;
}

/** The name of an action kind (`discard`, `concealed_kong`, …). */
export function kindName(k: ActionKindId): string {
  return KIND_NAMES[k]!;
}
