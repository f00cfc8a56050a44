/** A table that differs from another only in what one seat cannot see (for tests that a sampler or a bot reads only its view). */
import { FLOWER_BASE, KINDS } from '../../src/core/tiles.js';
import type { Rng } from '../../src/core/rng.js';
import { Table } from '../../src/engine/index.js';

/**
 * `real` with the tiles its seat `seat` cannot see (other hands, the live wall) dealt again
 * in another order: a table that differs from it only in hidden tiles.
 */
export function reshuffledHidden(real: Table, seat: number, rng: Rng): Table {
  const snap = real.snapshot();
  const st = snap.state as Record<string, number[]>;
  const hand = st.hand!;
  const wall = st.wall!;
  const front = real.front;
  const end = real.end;
  const tiles: number[] = [];
  const sizes: number[] = [];
  for (let s = 0; s < 4; s++) {
    let n = 0;
    if (s !== seat) for (let k = 0; k < KINDS; k++) for (let c = 0; c < hand[s * KINDS + k]!; c++) tiles.push(k), n++;
    sizes.push(n);
  }
  for (let i = front; i < end; i++) tiles.push(wall[i]!);
  for (let i = tiles.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [tiles[i], tiles[j]] = [tiles[j]!, tiles[i]!];
  }
  // Flowers must stay in the wall; deal the non-flowers to the hands first.
  const flowers = tiles.filter((x) => x >= FLOWER_BASE);
  const plain = tiles.filter((x) => x < FLOWER_BASE);
  let p = 0;
  for (let s = 0; s < 4; s++) {
    if (s === seat) continue;
    for (let k = 0; k < KINDS; k++) hand[s * KINDS + k] = 0;
    for (let i = 0; i < sizes[s]!; i++) hand[s * KINDS + plain[p++]!]!++;
  }
  const rest = [...plain.slice(p), ...flowers];
  for (let i = rest.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  for (let i = front; i < end; i++) wall[i] = rest[i - front]!;
  return Table.restore(snap);
}

