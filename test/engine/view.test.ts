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

describe('meld sources in the view', () => {
  it('say which seat and which discard each claimed set took, and which kongs were added to a pung', () => {
    const seen = { chow: 0, pung: 0, kong: 0, added: 0, concealed: 0, hidden: 0, chowNotLowest: 0 };
    for (const name of PROFILE_NAMES) {
      for (let k = 0; k < 100; k++) {
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
            decide(v: View, legal) {
              for (let s = 0; s < 4; s++) {
                const got: Entry[] = [];
                for (let i = 0; i < v.meldCount(s); i++) {
                  got.push({ kind: v.meldKind(s, i), tile: v.meldTile(s, i), from: v.meldFrom(s, i), claimed: v.meldClaimed(s, i), added: v.meldAdded(s, i) });
                }
                // Another seat's concealed kong hides its tile, and only its tile.
                const want = ledger[s]!.map((e) => (e.kind === 'concealed_kong' && s !== v.seat ? { ...e, tile: -1 } : e));
                if (JSON.stringify(got) !== JSON.stringify(want)) expect(got, `${name} hand ${k}, seat ${v.seat} sees seat ${s}`).toEqual(want);
                if (s !== v.seat) seen.hidden += want.filter((e) => e.tile === -1).length;
              }
              return inner.decide(v, legal);
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
    // Every case above happened (the test is not vacuous).
    for (const [what, n] of Object.entries(seen)) expect(n, what).toBeGreaterThan(0);
  });
});
