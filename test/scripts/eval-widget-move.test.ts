import { describe, expect, it } from 'vitest';
import type { DetectedFace as ServerFace } from '../../server/analysis/stages/face.js';
import type { DetectedFace as WidgetFace } from '../../src/capture/detected-face.js';
import { yawOf } from '../../src/capture/liveness.js';
import { movingPerson, playLook, playMove, STEP_FRAMES, widgetFace, type WidgetView } from '../fixtures/hard/widget-move.js';

/** A widget face with yaw `yaw` (eyes 0.1 apart, the nose `yaw` eye distances off their middle) and width `w`. */
const faceAt = (yaw: number, w = 0.4): WidgetFace => ({
  box: { x: 0.3, y: 0.3, width: w, height: w },
  keypoints: [
    { x: 0.45, y: 0.4 },
    { x: 0.55, y: 0.4 },
    { x: 0.5 + yaw * 0.1, y: 0.5 },
  ],
  score: 0.9,
});
const view = (yaw: number | null, w?: number): WidgetView => ({ faces: yaw === null ? [] : [faceAt(yaw, w)], luma: 120 });
const straight = view(0);

/** Plays `views` in order (the person ignores the gate), frame i labelled i. */
const play = (step: 'turn_left' | 'turn_right' | 'come_closer', views: WidgetView[], keep = 6) =>
  playMove(step, straight, (i) => Promise.resolve({ frame: i, view: views[i]! }), keep, views.length);

describe('a liveness move played to the widget (eval)', () => {
  it('ends a turn at the widget gate: the third frame running at |yaw| ≥ 0.3, nothing after it sent', async () => {
    const m = await play('turn_left', [view(0.1), view(0.2), view(0.31), view(0.35), view(0.4), view(0.5), view(0.6)]);
    expect(m.completed).toBe(true);
    expect(m.made).toBe(5);
    expect(m.kept).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps only frames where the detector found one face, six of them spread over the move', async () => {
    const m = await play('turn_left', [
      view(0),
      view(0.1),
      view(null),
      view(0.15),
      view(0.2),
      view(0.25),
      view(0.3),
      view(null),
      view(0.32),
      view(0.33),
      view(0.34),
    ]);
    // The face-less frame breaks the hold: the gate ends the move on frame 10, not 9.
    expect(m.completed).toBe(true);
    expect(m.kept).toEqual([0, 1, 4, 6, 8, 10]);
  });

  it('sends a frame from the middle of a turn that lingers near its end (the last six alone had none)', async () => {
    const yaws = [0, 0.05, 0.1, 0.15, 0.2, 0.28, 0.28, 0.28, 0.28, 0.28, 0.28, 0.31, 0.31, 0.31];
    const m = await play(
      'turn_left',
      yaws.map((y) => view(y)),
    );
    expect(m.completed).toBe(true);
    expect(m.kept).toHaveLength(6);
    expect(m.kept.at(-1)).toBe(13);
    // The server's continuity rule: a frame strictly between 25 % and 75 % of the final turn.
    const shares = m.kept.slice(0, -1).map((i) => yaws[i]! / 0.31);
    expect(shares.some((s) => s > 0.25 && s < 0.75)).toBe(true);
  });

  it('measures the turn from the straight look, as the widget does', async () => {
    const aside = view(-0.14);
    const frames = [view(-0.2), view(-0.33), view(-0.34), view(-0.35), view(-0.45), view(-0.46), view(-0.47)];
    const m = await playMove('turn_right', aside, (i) => Promise.resolve({ frame: i, view: frames[i]! }), 6, frames.length);
    expect(m.completed).toBe(true);
    expect(m.made).toBe(7);
  });

  it('times a move out when the gate is never met, as the widget does', async () => {
    const m = await play('turn_left', [view(0.1), view(0.2), view(0.28), view(null), view(null)]);
    expect(m.completed).toBe(false);
    // A turn the wrong way does not count either.
    expect((await play('turn_right', [view(0.3), view(0.35), view(0.4)])).completed).toBe(false);
  });

  it('lets the person hold the pose once the gate is met', async () => {
    const asked: boolean[] = [];
    const yaws = [0.1, 0.2, 0.3, 0.3, 0.3];
    const m = await playMove('turn_left', straight, (i, met) => (asked.push(met), Promise.resolve({ frame: i, view: view(yaws[i]!) })), 6, 5);
    expect(m.completed).toBe(true);
    expect(asked).toEqual([false, false, false, true, true]);
  });

  it('judges a move for the shortest move time an account can set (10 s at 10 frames a second), not one second', async () => {
    expect(STEP_FRAMES).toBe(100);
    // A person at the farthest they can turn, holding just under the gate: the camera's jitter
    // lifts three frames running over it after 1.5 s, long before the widget's clock ends the move.
    const person = movingPerson(0.07, 4);
    const jitter = (i: number): number => (i >= 15 && i < 18 ? 0.03 : i % 3 === 0 ? 0.01 : -0.01);
    const next = (i: number, met: boolean) => Promise.resolve({ frame: i, view: view(person(met) + jitter(i)) });
    const m = await playMove('turn_left', straight, next, 6, STEP_FRAMES);
    expect(m).toMatchObject({ completed: true, made: 18 });
    // The eval's clock before (10 frames, one second) timed this person out.
    const early = movingPerson(0.07, 4);
    const cut = await playMove('turn_left', straight, (i, met) => Promise.resolve({ frame: i, view: view(early(met) + jitter(i)) }), 6, 10);
    expect(cut.completed).toBe(false);
  });

  it('moves the person on until a frame meets the gate, never past their reach, and holds once one does', () => {
    const person = movingPerson(6, 3);
    expect([false, false, true, true, false, false, false, false].map((met) => person(met))).toEqual([6, 12, 12, 12, 18, 18, 18, 18]);
    // Amounts are added step by step: the same poses the eval rendered before the reach was bounded.
    const closer = movingPerson(0.08, 10);
    let sum = 0;
    for (let i = 0; i < 10; i++) expect(closer(false)).toBe((sum += 0.08));
    expect(closer(false)).toBe(sum);
  });

  it('ends coming closer at 1.2× the straight look’s face width', async () => {
    const m = await play('come_closer', [view(0, 0.44), view(0, 0.48), view(0, 0.5), view(0, 0.52), view(0, 0.6)]);
    expect(m.completed).toBe(true);
    expect(m.made).toBe(4);
  });

  it('reads the widget’s keypoints from the mesh: iris centres and nose tip give the widget’s yaw', () => {
    const mesh: [number, number][] = Array.from({ length: 478 }, () => [0, 0]);
    mesh[468] = [100, 200];
    mesh[473] = [200, 200];
    mesh[1] = [180, 260];
    // Outer eye corners further apart than the irises: the server's measure would be smaller.
    mesh[33] = [60, 200];
    mesh[263] = [240, 200];
    const server: ServerFace = { box: [50, 100, 200, 250], score: 0.9, emotions: {}, turn: 0, mesh };
    const w = widgetFace(server, 400, 500)!;
    expect(w.box).toEqual({ x: 0.125, y: 0.2, width: 0.5, height: 0.5 });
    expect(yawOf(w)).toBeCloseTo(0.3, 5);
    expect(widgetFace({ ...server, mesh: undefined }, 400, 500)).toBeNull();
  });

  it('ends the straight look on the third straight frame running, over many frames, as the widget does', async () => {
    // The camera's noise takes one frame of a pose near the gate (0.25) out of it: the eval judged
    // one frame and counted the person as timed out; the widget looks again and again.
    const yaws = [0.24, 0.27, 0.22, 0.23, 0.26, 0.2, 0.21, 0.24, 0.3];
    const look = await playLook((i) => Promise.resolve({ frame: i, view: view(yaws[i]!) }), yaws.length);
    expect(look).toEqual({ held: [5, 6, 7], completed: true, made: 8 });
    // A pose the widget never takes as straight (or a face it cannot see) times out.
    const aside = await playLook((i) => Promise.resolve({ frame: i, view: i % 2 ? view(null) : view(0.28) }), 10);
    expect(aside).toEqual({ held: [], completed: false, made: 10 });
  });
});
