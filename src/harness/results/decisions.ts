/**
 * decisions.arrow (`tw16 run --record decisions`): one row per decision a bot was asked — a
 * pending seat with more than one legal action —, with the seat's observation (tw16-obs-1,
 * src/engine/obs.ts), its legal actions and its answer as dense action ids, and the seat's
 * points and luck of the hand. Columns are declared once here; results/README.md documents them.
 *
 * A recorder per play (a hand, or a whole match) collects the rows through the hand stepper's
 * `onDecision` while the play runs, whoever answers (bots inline, bot programs through the
 * interleaved tables), and writes them once the play's result is known, in play order: the
 * rows are a pure function of the plays, whatever plays were in progress at once.
 */
import { actionId, encodeObservation, luckOf, OBS_FORMAT, OBS_SIZE, type Action, type HandResult, type MatchResult, type View } from '../../engine/index.js';
import { BatchBuilder, type ColumnSpec } from '../io/columns.js';
import { setSeatPlace } from './records.js';

/** decisions.arrow: one row per decision asked. */
export const DECISION_COLUMNS: readonly ColumnSpec[] = [
  { name: 'deal', kind: 'u32', doc: 'as in hands.arrow' },
  { name: 'arm', kind: 'u8', doc: 'as in hands.arrow' },
  { name: 'seating', kind: 'u8', doc: 'as in hands.arrow' },
  { name: 'hand', kind: 'u16', doc: 'as in hands.arrow' },
  { name: 'hand_key', kind: 'u32', doc: 'as in hands.arrow: the row belongs to the hands.arrow row with the same (deal, arm, seating, hand)' },
  { name: 'seat', kind: 'u8', doc: 'the deciding seat 0–3' },
  { name: 'bot', kind: 'utf8', doc: 'bot in that seat' },
  { name: 'step', kind: 'u16', doc: 'the decision’s place in the hand: decisions made before it, all seats, forced ones (a single legal action, not rows) included' },
  { name: 'phase', kind: 'utf8', doc: 'turn (own turn), claim (a discard on offer) or rob (an added kong that may be robbed)' },
  { name: 'obs', kind: 'u8xN', size: OBS_SIZE, doc: `the seat’s observation (${OBS_FORMAT}, ${OBS_SIZE} values; "The observation" below)` },
  { name: 'legal', kind: 'u16list', doc: 'the legal actions as action ids (kind × 34 + tile), ascending, at least two' },
  { name: 'action', kind: 'u16', doc: 'the action taken, an action id; always one of `legal`' },
  { name: 'points', kind: 'i32', doc: 'the seat’s points of the hand (its `delta_s` in hands.arrow)' },
  { name: 'luck', kind: 'f32', doc: 'the seat’s luck of the hand in points: its luck features (`luck_<seat>_<feature>` in hands.arrow) weighted by the reference weights of the profile, as `tw16 env` weights them (0 when the run had luck off); `points − luck` has the mean of `points`' },
];

const D = Object.fromEntries(DECISION_COLUMNS.map((c, i) => [c.name, i])) as Record<string, number>;

/** One decision kept until its hand's result is known. */
interface Row {
  readonly handKey: number;
  readonly seat: number;
  readonly step: number;
  readonly phase: string;
  readonly obs: Uint8Array;
  readonly legal: Uint16Array;
  readonly action: number;
}

/** The decisions of one play (a hand or a match), in the order they were made. */
export class PlayDecisions {
  private readonly rows: Row[] = [];
  private handKey = -1;
  private step = 0;

  /** The stepper's `onDecision` for this play. */
  readonly onDecision = (seat: number, view: View, legal: ArrayLike<Action>, answer: unknown): void => {
    if (view.handKey !== this.handKey) {
      this.handKey = view.handKey;
      this.step = 0;
    }
    const step = this.step++;
    if (legal.length < 2) return;
    const ids = new Uint16Array(legal.length);
    for (let i = 0; i < legal.length; i++) ids[i] = actionId(legal[i]!);
    // An answer that is not a legal action stops the run (a BotError) before these rows are written.
    this.rows.push({ handKey: this.handKey, seat, step, phase: view.phase, obs: encodeObservation(view), legal: ids, action: typeof answer === 'number' ? actionId(answer) : 0 });
  };

  /**
   * Append the rows to `out` once the play is over: its coordinates, the bots by seat, and its
   * result (a hand's, or a match's hands in order); `luckWeights` weight the hands' luck features
   * for the `luck` column (none: 0).
   */
  write(out: BatchBuilder, at: { readonly deal: number; readonly arm: number; readonly seating: number; readonly bots: readonly string[] }, result: HandResult | MatchResult, luckWeights?: ArrayLike<number>): void {
    const hands = 'outcome' in result ? [result] : result.hands;
    let h = 0;
    // The features as hands.arrow stores them (float32), so that the column can be recomputed from that file.
    let features: Float32Array | undefined;
    let featuresOf = -1;
    // One place object for every row (a spread per row is slow in V8), its hand set per row.
    const place = { deal: at.deal, arm: at.arm, seating: at.seating, bots: at.bots, hand: 0 };
    for (const r of this.rows) {
      while (hands[h]!.handKey !== r.handKey) h++;
      const hand = hands[h]!;
      if (luckWeights && hand.luckFeatures && featuresOf !== h) [features, featuresOf] = [Float32Array.from(hand.luckFeatures), h];
      const row = out.addRow();
      place.hand = 'outcome' in result ? 0 : h;
      setSeatPlace(out, row, D, place, r.handKey, r.seat);
      out.set(row, D.step!, r.step);
      out.set(row, D.phase!, r.phase);
      out.setFixed(row, D.obs!, r.obs);
      out.setList(row, D.legal!, r.legal);
      out.set(row, D.action!, r.action);
      out.set(row, D.points!, hand.deltas[r.seat]!);
      out.set(row, D.luck!, luckWeights && features ? luckOf(features, r.seat, luckWeights) : 0);
    }
  }
}

/** A builder for a job's decision rows. */
export function newDecisionBuilder(expected = 1024): BatchBuilder {
  return new BatchBuilder(DECISION_COLUMNS, expected);
}
