/**
 * Settlement (docs/rules.md#settlement): who pays whom for one hand.
 *
 * Each payer pays `base + perTai × (tai + dealer)` to each winner it owes, where `dealer`
 * is `1 + 2 × streak` on the payments the profile's `dealerTai` rule covers (to or from the
 * dealer, East; or only to a winning dealer), and 0 otherwise. In `casual` the winner scores 1 point and nobody pays.
 */
import type { Profile } from './profiles.js';
import type { Wind } from './types.js';
import { InputError } from '../core/errors.js';

/** One winner of a hand. */
export interface SettleWinner {
  /** The winner's seat wind (East = the dealer). */
  readonly seat: Wind;
  /** The hand's tai (ScoreResult.tai; the dealer, streak and ready tai are added here). */
  readonly tai: number;
  /** The winner had declared ready (+1 tai in profiles with `readyDeclaration`). */
  readonly ready?: boolean;
}

/** The outcome of a hand, as settlement needs it. */
export interface SettleInput {
  /** Everyone who won (several on one discard); for `false_win`, winners[0] is the declarer. */
  readonly winners: readonly SettleWinner[];
  /** Self-drawn win: the three others pay. */
  readonly selfDraw: boolean;
  /** Who pays alone: the discarder, a robbed kong's owner, or seven_rob_one's eighth holder. */
  readonly discarder?: Wind;
  /** The dealer's streak (hands kept in a row, 0 on a fresh deal). */
  readonly streak: number;
  /** `normal` (default), an instant flower win, or a false win (`full`). */
  readonly kind?: 'normal' | 'eight_flowers' | 'seven_rob_one' | 'false_win';
  /** Base units (底); defaults to profile.base. */
  readonly base?: number;
  /** Units per tai (台); defaults to profile.perTai. */
  readonly perTai?: number;
}

/** Bad settlement input (e.g. a discard win without a discarder): exit code 2 at the CLI. */
export class SettleError extends InputError {
  constructor(message: string) {
    super(message);
    this.name = 'SettleError';
  }
}

/** The four deltas of a hand, by seat wind E S W N. */
export type Deltas = [number, number, number, number];

const DEALER: Wind = 0;

function isWind(x: unknown): x is Wind {
  return x === 0 || x === 1 || x === 2 || x === 3;
}

/**
 * Per-seat deltas (by wind) of one hand. They sum to zero, except in `casual` (payout
 * `point`), where each winner gets +1 and nobody pays. An empty `winners` (a drawn hand)
 * pays nothing. Throws SettleError on inconsistent input.
 */
export function settle(input: SettleInput, profile: Profile): Deltas {
  const deltas: Deltas = [0, 0, 0, 0];
  const kind = input.kind ?? 'normal';
  const base = input.base ?? profile.base;
  const perTai = input.perTai ?? profile.perTai;
  checkInput(input, base, perTai);
  if (input.winners.length === 0) return deltas;
  if (kind === 'false_win') return settleFalseWin(input.winners[0]!.seat, input.streak, base, perTai, profile);
  if (profile.payout === 'point') {
    for (const w of input.winners) deltas[w.seat] += 1;
    return deltas;
  }
  const allPay = kind === 'eight_flowers' || (kind === 'normal' && input.selfDraw);
  if (!allPay && input.discarder === undefined) {
    throw new SettleError(`settle: a ${kind === 'seven_rob_one' ? 'seven_rob_one win' : 'win on a discard'} needs the discarder (who pays)`);
  }
  if (allPay && input.winners.length > 1) throw new SettleError('settle: only one player can win by self-draw');
  for (const w of input.winners) {
    const tai = w.tai + (w.ready && profile.readyDeclaration ? 1 : 0);
    for (const payer of payersOf(w.seat, allPay, input.discarder)) {
      const amount = base + perTai * (tai + dealerTai(w.seat, payer, input.streak, profile));
      deltas[payer] -= amount;
      deltas[w.seat] += amount;
    }
  }
  return deltas;
}

/**
 * The extra tai of one payment from `payer` to `winner` (by wind): `1 + 2 × streak` when the
 * profile's rule (`dealerTai`) covers it — `both`: the winner or the payer is the dealer;
 * `winner`: the winner is the dealer; `none`: never.
 */
export function dealerTai(winner: Wind, payer: Wind, streak: number, profile: Profile): number {
  const rule = profile.dealerTai;
  const applies = rule === 'both' ? winner === DEALER || payer === DEALER : rule === 'winner' && winner === DEALER;
  return applies ? 1 + 2 * streak : 0;
}

function payersOf(winner: Wind, allPay: boolean, discarder: Wind | undefined): Wind[] {
  if (!allPay) return [discarder!];
  return ([0, 1, 2, 3] as Wind[]).filter((s) => s !== winner);
}

/**
 * 詐胡 (`full`): the declarer pays `base + perTai × (penalty + dealer)` to each other seat, with
 * dealer tai by the profile's rule, the receiving seat in the winner's place (002 applies it
 * "to every payment to or from them").
 */
function settleFalseWin(declarer: Wind, streak: number, base: number, perTai: number, profile: Profile): Deltas {
  if (profile.falseWinPenaltyTai === null) {
    throw new SettleError(`settle: profile ${profile.name} has no false-win penalty (a false win is a bot error there)`);
  }
  const deltas: Deltas = [0, 0, 0, 0];
  for (let s = 0; s < 4; s++) {
    if (s === declarer) continue;
    const amount = base + perTai * (profile.falseWinPenaltyTai + dealerTai(s as Wind, declarer, streak, profile));
    deltas[s]! += amount;
    deltas[declarer] -= amount;
  }
  return deltas;
}

function checkInput(input: SettleInput, base: number, perTai: number): void {
  if (!Number.isInteger(input.streak) || input.streak < 0) throw new SettleError(`settle: streak must be a non-negative integer (got ${input.streak})`);
  if (!(Number.isFinite(base) && base >= 0)) throw new SettleError(`settle: base must be a non-negative number (got ${base})`);
  if (!(Number.isFinite(perTai) && perTai >= 0)) throw new SettleError(`settle: perTai must be a non-negative number (got ${perTai})`);
  if (input.discarder !== undefined && !isWind(input.discarder)) throw new SettleError(`settle: discarder must be a wind 0–3 (got ${input.discarder})`);
  const seen = new Set<number>();
  input.winners.forEach((w, i) => {
    if (!isWind(w.seat)) throw new SettleError(`settle: winners[${i}].seat must be a wind 0–3 (got ${w.seat})`);
    if (!(Number.isFinite(w.tai) && w.tai >= 0)) throw new SettleError(`settle: winners[${i}].tai must be a non-negative number (got ${w.tai})`);
    if (seen.has(w.seat)) throw new SettleError(`settle: winners[${i}].seat ${w.seat} is listed twice`);
    if (w.seat === input.discarder && input.kind !== 'false_win') throw new SettleError(`settle: winners[${i}] cannot also be the discarder`);
    seen.add(w.seat);
  });
}
