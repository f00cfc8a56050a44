/**
 * One phase vocabulary (src/engine/constants.ts): each decision phase code has one name, the
 * table, its pending decisions, its views and its steps all call the phase the table is in by
 * that name, and the names are the words of the bot protocol's wire format.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTile as T } from '../../src/core/tiles.js';
import { getProfile } from '../../src/rules/index.js';
import { ActionKind, Table, type Action, type Step } from '../../src/engine/index.js';
import { DECISION_PHASES, decisionPhaseOf, PHASE_CLAIM, PHASE_OVER, PHASE_ROB, PHASE_TURN } from '../../src/engine/constants.js';
import { wallFrom, type WallPlan } from './helpers.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const p0 = getProfile('p0');

/**
 * Step `t` to its end, choosing with `choose`; at every decision, check that the table's phase
 * code, `decisionPhase()`, every pending decision, its view and the recorded step agree on the
 * name (the step is the first one `apply` records). Returns the names seen.
 */
function driveChecking(t: Table, choose: (seat: number, legal: readonly Action[], i: number) => Action): Set<string> {
  const seen = new Set<string>();
  let first: Step | undefined;
  let offer = -1; // the kind of the last turn action
  t.onStep = (s) => void (first ??= s);
  for (let i = 0; !t.isOver(); i++) {
    const code = t.phase;
    expect([PHASE_TURN, PHASE_CLAIM, PHASE_ROB]).toContain(code);
    const name = DECISION_PHASES[code as 0 | 1 | 2];
    seen.add(name);
    // What the words mean: a window after a discard is `claim`, after an added kong `rob`.
    if (code !== PHASE_TURN) expect(name).toBe(offer === ActionKind.ADDED_KONG ? 'rob' : 'claim');
    expect(t.decisionPhase()).toBe(name);
    const pending = t.pending();
    for (const d of pending) {
      expect(d.phase).toBe(name);
      expect(d.view.phase).toBe(name);
    }
    const { seat, legal } = pending[0]!;
    const a = choose(seat, legal, i);
    if (code === PHASE_TURN) offer = a >> 6;
    first = undefined;
    t.apply(seat, a);
    expect(first).toMatchObject({ type: 'action', seat, phase: name });
  }
  expect(t.phase).toBe(PHASE_OVER);
  return seen;
}

describe('the phase vocabulary', () => {
  it('maps each decision phase code to its name; a finished hand reads as a turn (nobody decides)', () => {
    expect(DECISION_PHASES.map((_, code) => decisionPhaseOf(code))).toEqual([...DECISION_PHASES]);
    expect(decisionPhaseOf(PHASE_TURN)).toBe(DECISION_PHASES[PHASE_TURN]);
    expect(decisionPhaseOf(PHASE_CLAIM)).toBe(DECISION_PHASES[PHASE_CLAIM]);
    expect(decisionPhaseOf(PHASE_ROB)).toBe(DECISION_PHASES[PHASE_ROB]);
    expect(decisionPhaseOf(PHASE_OVER)).toBe(DECISION_PHASES[PHASE_TURN]);
    expect(new Set([PHASE_TURN, PHASE_CLAIM, PHASE_ROB, PHASE_OVER]).size).toBe(4);
  });

  it('the names are the wire words of the protocol (the schema of a view message)', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'docs/protocol/tw16-bot-1.schema.json'), 'utf8')) as { $defs: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
    const words = schema.$defs.view!.properties!.phase!.enum!;
    expect([...DECISION_PHASES].sort()).toEqual([...words].sort());
  });

  it('the table, its pending decisions, views and steps name turns and claim windows alike over many hands', () => {
    const seen = new Set<string>();
    for (let k = 0; k < 60; k++) {
      const t = new Table().reset({ rules: p0, seed: 'phase-names', handKey: k, dealer: k & 3, round: 0, streak: 0 });
      // Claims are taken whenever offered, so windows resolve every way; turns discard by a fixed spread.
      const s = driveChecking(t, (_seat, legal, i) => (legal.length > 1 && legal[0] === 0 ? legal[legal.length - 1]! : legal[(i * 7 + k) % legal.length]!));
      for (const n of s) seen.add(n);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['turn', 'claim']));
  });

  it('… and a rob window', () => {
    // Seat 1 pungs 6s from the dealer, then draws the fourth 6s and adds it; seat 2 waits on 3s/6s and robs.
    const plan: WallPlan = { hands: ['147m147p1234567z9p9s8s6s', '258m258p258s12345z66s', '123456789p234m45s99s', '369m258s123456z11p22p'], draws: '1s2s3s6s' };
    const t = new Table().reset({ rules: p0, seed: 'phase-names', handKey: 1, dealer: 0, round: 0, streak: 0, wall: wallFrom({ reserve: p0.wallReserve, ...plan }) });
    const want = (legal: readonly Action[], kind: number, tile: string) => legal.find((a) => a === kind * 64 + T(tile));
    const seen = driveChecking(t, (seat, legal) => {
      if (seat === 0 && t.turns === 0) return want(legal, ActionKind.DISCARD, '6s')!;
      if (seat === 1) return want(legal, ActionKind.PUNG, '6s') ?? want(legal, ActionKind.ADDED_KONG, '6s') ?? want(legal, ActionKind.DISCARD, '1z') ?? legal[0]!;
      if (seat === 2 && t.phase === PHASE_ROB) return legal.find((a) => a >> 6 === ActionKind.WIN)!;
      // Otherwise discard what was drawn (a turn), or pass (a window).
      return t.phase === PHASE_TURN ? (legal.find((a) => a === ActionKind.DISCARD * 64 + t.drawn) ?? legal.find((a) => a >> 6 === ActionKind.DISCARD)!) : legal[0]!;
    });
    expect(seen).toEqual(new Set(['turn', 'claim', 'rob']));
    expect(t.result().winners[0]!.facts.robKong).toBe(true);
  });
});
