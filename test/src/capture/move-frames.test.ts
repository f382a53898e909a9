import { expect } from '@open-wc/testing';
import { MOVE_POOL_FACTOR, poolMoveFrame, spreadOverMove } from '../../../src/capture/move-frames.js';

/** Pools frames 0..n-1 (frame i taken at time 10·i ms) as the widget does during a move. */
const poolOf = (n: number, keep: number): number[] => {
  let pool: number[] = [];
  for (let i = 0; i < n; i++) pool = poolMoveFrame(pool, i, keep, (f) => 10 * f);
  return pool;
};
const sent = (n: number, keep: number): number[] => spreadOverMove(poolOf(n, keep), keep, (i) => 10 * i);

describe('the frames a move sends', () => {
  it('sends every frame of a short move', () => {
    expect(sent(4, 6)).to.deep.equal([0, 1, 2, 3]);
  });

  it('spreads a long move’s frames from its start to the held pose, not its last six', () => {
    const frames = sent(40, 6);
    expect(frames).to.have.length(6);
    expect(frames[0]).to.equal(0);
    expect(frames.at(-1)).to.equal(39);
    // Frames from the middle of the move: where a turn is between a quarter and three quarters.
    expect(frames.some((i) => i >= 10 && i <= 30)).to.equal(true);
    expect([...frames].sort((a, b) => a - b)).to.deep.equal(frames);
  });

  it('holds a bounded pool that still spans the whole move, newest kept', () => {
    for (const n of [25, 60, 200]) {
      const pool = poolOf(n, 6);
      expect(pool.length).to.be.at.most(6 * MOVE_POOL_FACTOR);
      expect(pool[0]).to.equal(0);
      expect(pool.at(-1)).to.equal(n - 1);
      expect(pool.some((i) => i > n / 3 && i < (2 * n) / 3)).to.equal(true);
    }
  });

  it('sends only the held pose when one frame is asked for', () => {
    expect(sent(30, 1)).to.deep.equal([29]);
  });
});
