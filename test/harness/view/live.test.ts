/**
 * playHandLive (src/harness/view/live.ts), the driver `tw16 play` runs: with bots in every seat it
 * is playHand, step for step; with a person in a seat, playHand replaying that person's recorded
 * decisions gives the same hand; both referees watch it (`check`), firing on a corrupted step.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRng } from '../../../src/core/rng.js';
import { BotError, InvariantError, playHand, RuleViolation, type BotFactory, type Step } from '../../../src/engine/index.js';
import { DecisionsWriter, HUMAN, loadSeatBots } from '../../../src/harness/view/decisions.js';
import { playHandLive } from '../../../src/harness/view/live.js';
import { getProfile, PROFILE_NAMES } from '../../../src/rules/index.js';
import { ADVERSARIAL, defensive, greedy, random, value } from '../../../bots/index.js';

const LINEUPS: [string, BotFactory][][] = [
  [['greedy', greedy], ['random', random], ['value', value], ['defensive', defensive]],
  [['konger', ADVERSARIAL.konger!], ['claimer', ADVERSARIAL.claimer!], ['liar', ADVERSARIAL.liar!], ['eager', ADVERSARIAL.eager!]],
];

describe('playHandLive', () => {
  it('with bots in every seat is playHand: the same steps and result, over 300 hands', async () => {
    for (let h = 0; h < 300; h++) {
      const lineup = LINEUPS[h % 2]!;
      const setup = { rules: getProfile(PROFILE_NAMES[h % PROFILE_NAMES.length]!), seed: 'live', handKey: h, dealer: (h * 7) % 4, round: 1 as const, streak: h % 3, scores: [h, -h, 0, 0] };
      const a: Step[] = [];
      const b: Step[] = [];
      const want = playHand({ ...setup, bots: lineup.map((x) => x[1]), trace: (s) => a.push(s) });
      const got = await playHandLive({ ...setup, bots: lineup.map((x) => x[1]), ask: () => Promise.reject(new Error('no person here')), trace: (s) => b.push(s) });
      expect(got).toEqual(want);
      expect(b).toEqual(a);
    }
  });

  it('with a person in a seat: their decisions, recorded and played back by playHand, give the same hand', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw16-live-'));
    for (const [h, seat, profile] of [[0, 0, 'p0'], [1, 2, 'full'], [2, 3, 'table'], [3, 1, 'casual'], [4, 0, 'flowers'], [5, 1, 'p0']] as const) {
      const rules = getProfile(profile);
      const names = ['greedy', 'value', 'random', 'defensive'].map((n, s) => (s === seat ? HUMAN : n));
      const file = join(dir, `d${h}.jsonl`);
      const writer = new DecisionsWriter(file, { seed: 'person', rules: rules.name, bots: names });
      // The "person" picks uniformly among the legal actions from a stream of its own.
      const pick = makeRng(`person-${h}`);
      const setup = { rules, seed: 'person', handKey: h, dealer: h % 4, round: 0 as const, streak: 0, botNames: names };
      const a: Step[] = [];
      let asked = 0;
      const played = await playHandLive({
        ...setup,
        bots: await Promise.all(names.map(async (n) => (n === HUMAN ? null : (await loadSeatBots([n, n, n, n], undefined, { seed: 'person', rules: rules.name })).bots[0]!))),
       
        trace: (s) => a.push(s),
        ask: async (s, legal) => {
          asked++;
          const choice = legal[Math.floor(pick() * legal.length)]!;
          writer.record(h, s, choice);
          return choice;
        },
      });
      writer.end(h, played);
      writer.close();
      expect(asked).toBeGreaterThan(3);
      const seats = await loadSeatBots(names, file, { seed: 'person', rules: rules.name });
      const b: Step[] = [];
      const replayed = playHand({ ...setup, bots: seats.bots, trace: (s) => b.push(s) });
      seats.verify(h, replayed);
      expect(replayed).toEqual(played);
      expect(b).toEqual(a);
    }
  });

  it('both referees watch live play: a draw a trace corrupts is a RuleViolation naming the hand; unchecked, nothing fires', async () => {
    const setup = { rules: getProfile('p0'), seed: 'live-check', handKey: 9, dealer: 1, round: 2 as const, streak: 3, botNames: [HUMAN, 'greedy', 'value', 'random'] };
    const bots = [null, greedy, value, random];
    const ask = async (_s: number, legal: readonly number[]) => legal[0]!;
    let draws = 0;
    const corrupt = (s: Step) => {
      if (s.type === 'draw' && ++draws === 4) (s as { tile: number }).tile = s.tile === 0 ? 1 : 0;
    };
    // Checked and uncorrupted: the hand plays through.
    const clean = await playHandLive({ ...setup, bots, ask, check: true });
    draws = 0;
    const err = await playHandLive({ ...setup, bots, ask, check: true, trace: corrupt }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuleViolation);
    expect((err as InvariantError).at).toEqual({ handKey: 9, dealer: 1, round: 2, streak: 3 });
    expect((err as Error).message).toMatch(/^hand 9, step \d+ \(draw\): /);
    draws = 0;
    expect(await playHandLive({ ...setup, bots, ask, trace: corrupt })).toEqual(clean);
  });

  it("a person's illegal answer is a BotError through the one fault path, naming the seat and the hand", async () => {
    const err = await playHandLive({
      rules: getProfile('p0'), seed: 'live-bad', handKey: 2, dealer: 0, round: 0, streak: 0, botNames: [HUMAN, 'greedy', 'greedy', 'greedy'],
      bots: [null, greedy, greedy, greedy],
      ask: async () => 9999,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BotError);
    expect((err as BotError).message).toMatch(/^bot "human" \(seat 0\) in hand 2 returned an illegal action \?9999; legal: \[/);
    expect((err as BotError).at).toEqual({ handKey: 2, dealer: 0, round: 0, streak: 0 });
  });
});
