/**
 * The view's meld sources (meldFrom, meldClaimed, meldAdded) against a ledger kept from the
 * hand's trace: which seat's discard each claimed set took and which tile, concealed kongs with
 * neither, and a kong made by adding to a pung told apart from a claimed kong.
 */
import { describe, expect, it } from 'vitest';
import { getProfile, PROFILE_NAMES } from '../../src/rules/index.js';
import { ActionKind, actionKind, actionTile, playHand, type Action, type BotFactory, type Step, type View } from '../../src/engine/index.js';

interface Entry {
  kind: string;
  tile: number;
  from: number;
  claimed: number;
  added: boolean;
}

/** A bot that takes every win, most claims and kongs, and ready when offered: many melds of every kind. */
const grabby: BotFactory = (_seat, rng) => ({
  decide(_view, legal) {
    const of = (k: number) => legal.filter((a) => actionKind(a) === k);
    const win = of(ActionKind.WIN);
    if (win.length) return win[0]!;
    const grab = [...of(ActionKind.KONG), ...of(ActionKind.ADDED_KONG), ...of(ActionKind.CONCEALED_KONG), ...of(ActionKind.PUNG), ...of(ActionKind.CHOW)];
    if (grab.length && rng() < 0.8) return grab[Math.floor(rng() * grab.length)]!;
    const ready = of(ActionKind.READY);
    if (ready.length && rng() < 0.5) return ready[0]!;
    const rest = legal.filter((a) => ![ActionKind.KONG, ActionKind.PUNG, ActionKind.CHOW].includes(actionKind(a) as 6));
    return rest[Math.floor(rng() * rest.length)] ?? legal[0]!;
  },
});

/** A View that answers like `v` but for what `over` overrides (a deliberately wrong field). */
function corrupted(v: View, over: Partial<Pick<View, 'meldFrom' | 'meldClaimed' | 'meldAdded'>>): View {
  return new Proxy(v, {
    get: (t, k) => {
      if (k in over) return over[k as keyof typeof over];
      const x = Reflect.get(t, k, t) as unknown;
      return typeof x === 'function' ? (x as (...a: unknown[]) => unknown).bind(t) : x; // the view's methods read private fields
    },
  });
}

/**
 * Plays `hands` hands of each profile with claim-happy bots and compares, at every decision, what
 * the (possibly corrupted) view says of every seat's melds with the ledger: the mismatches, and
 * how many melds of each sort were seen.
 */
function check(hands: number, corrupt?: (v: View) => View) {
  const seen = { chow: 0, pung: 0, kong: 0, added: 0, concealed: 0, hidden: 0, chowNotLowest: 0 };
  const wrong: string[] = [];
  for (const name of PROFILE_NAMES) {
    for (let k = 0; k < hands; k++) {
      const ledger: Entry[][] = [[], [], [], []];
      let lastDiscard = -1;
      const trace = (s: Step) => {
        if (s.type === 'action') {
          const kind = actionKind(s.action as Action);
          const t = actionTile(s.action as Action);
          if (kind === ActionKind.DISCARD || kind === ActionKind.READY) lastDiscard = t;
          if (kind === ActionKind.CONCEALED_KONG) ledger[s.seat]!.push({ kind: 'concealed_kong', tile: t, from: -1, claimed: -1, added: false });
          if (kind === ActionKind.ADDED_KONG) {
            const m = ledger[s.seat]!.find((e) => e.kind === 'pung' && e.tile === t)!;
            m.kind = 'kong';
            m.added = true;
          }
        } else if (s.type === 'claim') {
          const kind = actionKind(s.action);
          const tile = actionTile(s.action);
          ledger[s.seat]!.push({ kind: kind === ActionKind.CHOW ? 'chow' : kind === ActionKind.PUNG ? 'pung' : 'kong', tile, from: s.from, claimed: lastDiscard, added: false });
        }
      };
      const spy: BotFactory = (seat, rng, rules) => {
        const inner = grabby(seat, rng, rules);
        return {
          decide(real: View, legal) {
            const v = corrupt ? corrupt(real) : real;
            for (let s = 0; s < 4; s++) {
              const got: Entry[] = [];
              for (let i = 0; i < v.meldCount(s); i++) {
                got.push({ kind: v.meldKind(s, i), tile: v.meldTile(s, i), from: v.meldFrom(s, i), claimed: v.meldClaimed(s, i), added: v.meldAdded(s, i) });
              }
              // Another seat's concealed kong hides its tile, and only its tile.
              const want = ledger[s]!.map((e) => (e.kind === 'concealed_kong' && s !== v.seat ? { ...e, tile: -1 } : e));
              if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${name} hand ${k}, seat ${v.seat} sees seat ${s}: ${JSON.stringify(got)}, ledger ${JSON.stringify(want)}`);
              if (s !== v.seat) seen.hidden += want.filter((e) => e.tile === -1).length;
            }
            return inner.decide(real, legal);
          },
        };
      };
      playHand({ rules: getProfile(name), seed: 'meld-sources', handKey: k, dealer: k % 4, round: 0, streak: 0, bots: [spy, spy, spy, spy], trace });
      for (const m of ledger.flat()) {
        if (m.kind === 'chow') {
          seen.chow++;
          if (m.claimed !== m.tile) seen.chowNotLowest++;
          expect(m.claimed - m.tile).toBeGreaterThanOrEqual(0);
          expect(m.claimed - m.tile).toBeLessThanOrEqual(2);
        } else if (m.kind === 'pung') seen.pung++;
        else if (m.kind === 'concealed_kong') seen.concealed++;
        else if (m.added) seen.added++;
        else seen.kong++;
      }
    }
  }
  return { wrong, seen };
}

describe('meld sources in the view', () => {
  it('say which seat and which discard each claimed set took, and which kongs were added to a pung', () => {
    const { wrong, seen } = check(100);
    expect(wrong.slice(0, 3)).toEqual([]);
    // Every case above happened (the test is not vacuous).
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  });

  it('the check fires when a source is wrong: a chow said to take its lowest tile, a kong not told added, the wrong seat', () => {
    const lowest = check(20, (v) => corrupted(v, { meldClaimed: (s, i) => (v.meldKind(s, i) === 'chow' ? v.meldTile(s, i) : v.meldClaimed(s, i)) }));
    expect(lowest.wrong.length).toBeGreaterThan(0);
    const notAdded = check(20, (v) => corrupted(v, { meldAdded: () => false }));
    expect(notAdded.wrong.length).toBeGreaterThan(0);
    expect(notAdded.wrong.some((w) => w.includes('"added":true'))).toBe(true);
    const seat = check(20, (v) => corrupted(v, { meldFrom: (s, i) => { const f = v.meldFrom(s, i); return f < 0 ? f : (f + 1) % 4; } }));
    expect(seat.wrong.length).toBeGreaterThan(0);
  });
});
