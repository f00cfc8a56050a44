/**
 * Random complete hands for property tests and benchmarks: a pure function of the random
 * source it is given (pass a seeded generator; nothing here calls Math.random).
 */
import { FLOWER_BASE, KINDS, type Tile } from '../core/tiles.js';
import type { Meld, Wind, WinFacts } from './types.js';

/** A source of uniform numbers in [0, 1), e.g. a seedrandom generator. */
export type Uniform = () => number;

function pick(rng: Uniform, n: number): number {
  return Math.floor(rng() * n);
}

type DrawnSet = { kind: 'chow' | 'pung'; tile: Tile };

/** One set drawn from the `left` counts (mutated), or null when the draw does not fit. */
function drawSet(rng: Uniform, left: Uint8Array, chowShare: number): DrawnSet | null {
  if (rng() < chowShare) {
    const suit = pick(rng, 3);
    const t = suit * 9 + pick(rng, 7);
    if (left[t]! < 1 || left[t + 1]! < 1 || left[t + 2]! < 1) return null;
    left[t]!--;
    left[t + 1]!--;
    left[t + 2]!--;
    return { kind: 'chow', tile: t };
  }
  const t = pick(rng, KINDS);
  if (left[t]! < 3) return null;
  left[t]! -= 3;
  return { kind: 'pung', tile: t };
}

/**
 * A random complete 17-tile win: five sets and a pair, some sets claimed (chow, pung or
 * exposed kong) or concealed kongs, a random winning tile from the concealed part, random
 * flowers, winds and self-draw. Every kind appears at most four times.
 */
export function randomCompleteHand(rng: Uniform): WinFacts {
  for (;;) {
    const left = new Uint8Array(KINDS).fill(4);
    const chowShare = rng() < 0.2 ? 0.1 : 0.6; // some pung-heavy hands too
    const sets: DrawnSet[] = [];
    let tries = 0;
    while (sets.length < 5 && tries++ < 100) {
      const s = drawSet(rng, left, chowShare);
      if (s) sets.push(s);
    }
    if (sets.length < 5) continue;
    const pair = pick(rng, KINDS);
    if (left[pair]! < 2) continue;
    left[pair]! -= 2;
    const laid = rng() < 0.4 ? 0 : 1 + pick(rng, rng() < 0.1 ? 5 : 3);
    const melds: Meld[] = [];
    const concealedKongs: Tile[] = [];
    const concealed = new Uint8Array(KINDS);
    concealed[pair]! += 2;
    sets.forEach((s, i) => {
      const kong = s.kind === 'pung' && left[s.tile]! > 0 && rng() < 0.25;
      if (i < laid) {
        if (kong) left[s.tile]!--;
        if (kong && rng() < 0.3) concealedKongs.push(s.tile);
        else melds.push({ kind: kong ? 'kong' : s.kind, tile: s.tile });
      } else if (s.kind === 'chow') {
        for (let k = 0; k < 3; k++) concealed[s.tile + k]!++;
      } else concealed[s.tile]! += 3;
    });
    const inHand: Tile[] = [];
    for (let t = 0; t < KINDS; t++) for (let k = 0; k < concealed[t]!; k++) inHand.push(t);
    const win = inHand[pick(rng, inHand.length)]!;
    concealed[win]!--;
    const flowers: Tile[] = [];
    for (let f = 0; f < 8; f++) if (rng() < 0.15) flowers.push(FLOWER_BASE + f);
    const selfDraw = rng() < 0.5;
    return {
      concealed,
      melds,
      concealedKongs,
      flowers,
      win,
      selfDraw,
      seat: pick(rng, 4) as Wind,
      round: pick(rng, 4) as Wind,
      lastTile: rng() < 0.05,
      afterKong: selfDraw && rng() < 0.05,
      robKong: !selfDraw && rng() < 0.03,
      heavenly: false,
    };
  }
}
