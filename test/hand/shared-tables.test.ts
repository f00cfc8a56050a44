import { describe, expect, it } from 'vitest';
import { adoptHandTables, handTables, shareHandTables } from '../../src/hand/tables.js';

describe('shareHandTables', () => {
  it('copies every table into shared memory with the same values', () => {
    const t = handTables();
    const s = shareHandTables();
    for (const [a, b] of [
      [t.suit.win, s.suit.win], [t.suit.wait, s.suit.wait], [t.suit.profile, s.suit.profile],
      [t.honor.win, s.honor.win], [t.honor.profile, s.honor.profile], [t.combine2, s.combine2],
      [t.combine3, s.combine3], [t.final, s.final],
    ] as const) {
      expect(b.buffer).toBeInstanceOf(SharedArrayBuffer);
      expect(b.constructor).toBe(a.constructor);
      expect(Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength))).toBe(0);
    }
    expect(shareHandTables()).toBe(s);
    expect(handTables()).toBe(t); // already in use here: kept
  });
  it('adoptHandTables is a no-op once this thread has built its own tables', () => {
    expect(() => adoptHandTables({} as never)).not.toThrow();
  });
});
