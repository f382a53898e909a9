import { expect } from '@open-wc/testing';
import type { DetectedFace } from '../../../src/capture/face-detector.js';
import { ChallengeJudge, faceHint, meetsStep, yawOf } from '../../../src/capture/liveness.js';

/** A face centred at (cx, 0.5) of width w, with the nose shifted by `yaw` eye distances. */
function face(yaw = 0, w = 0.35, cx = 0.5): DetectedFace {
  const eyeY = 0.45;
  const half = w * 0.18;
  return {
    box: { x: cx - w / 2, y: 0.5 - w / 2, width: w, height: w },
    keypoints: [
      { x: cx - half, y: eyeY },
      { x: cx + half, y: eyeY },
      { x: cx + yaw * 2 * half, y: 0.52 },
      { x: cx, y: 0.6 },
      { x: cx - w / 2, y: 0.48 },
      { x: cx + w / 2, y: 0.48 },
    ],
    score: 0.9,
  };
}

describe('liveness judgement', () => {
  it('measures yaw from the nose against the eyes', () => {
    expect(yawOf(face(0))).to.be.closeTo(0, 1e-9);
    expect(yawOf(face(0.5))).to.be.closeTo(0.5, 1e-9);
    expect(yawOf(face(-0.4))).to.be.closeTo(-0.4, 1e-9);
  });

  it('gives hints for no face, several faces, darkness, distance and centring', () => {
    expect(faceHint([], 120)).to.equal('NO_FACE');
    expect(faceHint([face(), face(0, 0.3, 0.2)], 120)).to.equal('MULTIPLE_FACES');
    expect(faceHint([face()], 20)).to.equal('TOO_DARK');
    expect(faceHint([face(0, 0.1)], 120)).to.equal('TOO_FAR');
    expect(faceHint([face(0, 0.9)], 120)).to.equal('TOO_CLOSE');
    expect(faceHint([face(0, 0.3, 0.9)], 120)).to.equal('NOT_CENTERED');
    expect(faceHint([face()], 120)).to.equal(null);
  });

  it('lets a person looking into the camera take the straight look (BlazeFace’s points on the e2e camera, 640x480)', () => {
    // Measured in Chromium on the face the end-to-end tests play as the camera: along the eye
    // line the nose sits 0.22 eye distances aside (0.135 in image x, the measure before).
    const measured: DetectedFace = {
      box: { x: 0.2671875, y: 0.4395833, width: 0.4265625, height: 0.56875 },
      keypoints: [
        { x: 0.3525227, y: 0.6455891 },
        { x: 0.5066376, y: 0.6250159 },
        { x: 0.4086081, y: 0.8103635 },
      ],
      score: 0.9,
      aspect: 640 / 480,
    };
    expect(yawOf(measured)).to.be.closeTo(-0.219, 0.001);
    expect(meetsStep('look_straight', measured, null)).to.equal(true);
    const judge = new ChallengeJudge(['look_straight']);
    let completed: number | null = null;
    for (let i = 0; i < 3; i++) completed = judge.push([measured], 120).completed ?? completed;
    expect(completed).to.equal(0);
  });

  it('judges each move', () => {
    expect(meetsStep('look_straight', face(0.05), null)).to.equal(true);
    expect(meetsStep('look_straight', face(0.4), null)).to.equal(false);
    expect(meetsStep('turn_left', face(0.4), null)).to.equal(true);
    expect(meetsStep('turn_left', face(-0.4), null)).to.equal(false);
    expect(meetsStep('turn_right', face(-0.4), null)).to.equal(true);
    expect(meetsStep('come_closer', face(0, 0.5), 0.35)).to.equal(true);
    expect(meetsStep('come_closer', face(0, 0.36), 0.35)).to.equal(false);
  });

  it('measures a turn from the straight look, as the server does', () => {
    // A face that looked straight at -0.14 has turned right by 0.19 at -0.33, by 0.31 at -0.45.
    expect(meetsStep('turn_right', face(-0.33), null, undefined, -0.14)).to.equal(false);
    expect(meetsStep('turn_right', face(-0.45), null, undefined, -0.14)).to.equal(true);
    expect(meetsStep('turn_left', face(0.2), null, undefined, -0.12)).to.equal(true);
    const judge = new ChallengeJudge(['look_straight', 'turn_right']);
    for (let i = 0; i < 3; i++) judge.push([face(-0.14)], 120);
    expect(judge.current).to.equal('turn_right');
    // -0.33 is past the old absolute gate (0.3) but only 0.19 from the straight look: not a turn yet.
    for (let i = 0; i < 3; i++) expect(judge.push([face(-0.33)], 120).completed).to.equal(null);
    let completed: number | null = null;
    for (let i = 0; i < 3; i++) completed = judge.push([face(-0.45)], 120).completed ?? completed;
    expect(completed).to.equal(1);
  });

  it('keeps a held turn counting through a frame the keypoints’ jitter dips under the gate', () => {
    // Development face 0, second take (eval): straight at -0.073, its turn right frame by frame.
    // Each dip (-0.357, -0.313) started the count again and the move timed out.
    const judge = new ChallengeJudge(['look_straight', 'turn_right']);
    for (let i = 0; i < 3; i++) judge.push([face(-0.073)], 120);
    const yaws = [-0.206, -0.228, -0.4, -0.374, -0.357, -0.313, -0.405];
    const completed = yaws.map((y) => judge.push([face(y)], 120).completed);
    expect(completed).to.deep.equal([null, null, null, null, null, null, 1]);
  });

  it('still starts a held turn again when the head comes back, and completes only on the gate', () => {
    const judge = new ChallengeJudge(['look_straight', 'turn_left']);
    for (let i = 0; i < 3; i++) judge.push([face(0)], 120);
    // Two frames at the gate, then back under the server's 0.2: the count starts again.
    expect([0.32, 0.31, 0.15, 0.31, 0.32].map((y) => judge.push([face(y)], 120).completed)).to.deep.equal([null, null, null, null, null]);
    // A dip held inside 0.2-0.3 neither counts nor completes, however long.
    expect([0.25, 0.25, 0.25, 0.25].map((y) => judge.push([face(y)], 120).completed)).to.deep.equal([null, null, null, null]);
    expect(judge.push([face(0.31)], 120).completed).to.equal(1);
    // Turning the other way never holds a left turn.
    const other = new ChallengeJudge(['look_straight', 'turn_left']);
    for (let i = 0; i < 3; i++) other.push([face(0)], 120);
    expect([0.31, -0.3, 0.31, 0.31].map((y) => other.push([face(y)], 120).completed)).to.deep.equal([null, null, null, null]);
    // Without the first frame at the gate a frame in the band does not start a count.
    const fresh = new ChallengeJudge(['look_straight', 'turn_left']);
    for (let i = 0; i < 3; i++) fresh.push([face(0)], 120);
    expect([0.25, 0.31, 0.25, 0.31].map((y) => fresh.push([face(y)], 120).completed)).to.deep.equal([null, null, null, null]);
  });

  it('walks through a sequence, each move held for several frames, in order', () => {
    const judge = new ChallengeJudge(['look_straight', 'turn_right', 'come_closer']);
    const feed = (f: DetectedFace[], times: number) => {
      let completed: number | null = null;
      for (let i = 0; i < times; i++) completed = judge.push(f, 120).completed ?? completed;
      return completed;
    };
    // Turning first does not count: the straight look comes first.
    expect(feed([face(-0.5)], 5)).to.equal(null);
    expect(feed([face(0)], 2)).to.equal(null);
    expect(feed([face(0)], 1)).to.equal(0);
    expect(judge.current).to.equal('turn_right');
    // A frame with two faces breaks the hold.
    feed([face(-0.5)], 2);
    feed([face(-0.5), face(0, 0.2, 0.2)], 1);
    expect(feed([face(-0.5)], 2)).to.equal(null);
    expect(feed([face(-0.5)], 1)).to.equal(1);
    expect(feed([face(0, 0.5)], 3)).to.equal(2);
    expect(judge.done).to.equal(true);
  });
});
