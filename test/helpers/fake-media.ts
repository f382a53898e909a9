/**
 * Chromium's fake camera and microphone for the end-to-end tests: files written at test time that
 * Chromium reads each time a page opens the device (so a test may rewrite them between steps,
 * keeping the camera's frame size, which Chromium reads when it lists the device). The camera
 * plays a generated head (fixtures/hard/head-turn.ts) turning as a timeline says; the microphone
 * plays espeak-ng reading what the page asks.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import type { VideoMove } from '../../src/api/contract.js';
import { headFrame } from '../fixtures/video.js';
import { speak } from './speech.js';
// @ts-expect-error -- plain JS fixture shared with the web tests
import { rgbToI420 } from '../src/fixtures/node/make-fake-cameras.mjs';

/** The demo face whose generated turns read clearly both ways. */
export const HEAD_FACE = 3;
/** The fake camera's frame rate. */
export const HEAD_FPS = 10;

/** One frame of the head: its yaw (degrees, positive to the user's left) and how close it is (1 = as generated). */
export interface HeadPose {
  yaw: number;
  closer?: number;
}

/** Chromium's flags for a fake camera playing `camera` (y4m) and a fake microphone playing `microphone` (WAV). */
export function fakeMediaArgs(camera: string, microphone?: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-video-capture=${camera}`,
    ...(microphone ? [`--use-file-for-fake-audio-capture=${microphone}`] : []),
  ];
}

/**
 * The Video method's camera, a pose per frame at {@link HEAD_FPS}: straight for 1 s (the widget
 * asks for a straight look first), each move held at 38° for 0.6 s (longer than the widget's
 * ~430 ms between sampled frames), then straight to the end of 8 s.
 */
export function videoTimeline(moves: readonly VideoMove[]): HeadPose[] {
  const yaws = Array<number>(10).fill(0);
  for (const move of moves) {
    const s = move === 'turn_left' ? 1 : -1;
    yaws.push(20 * s, ...Array<number>(6).fill(38 * s), 20 * s, 0, 0);
  }
  while (yaws.length < 8 * HEAD_FPS) yaws.push(0);
  return yaws.map((yaw) => ({ yaw }));
}

/** The head in one pose, as I420 bytes, and the frame size. */
async function poseFrame(pose: HeadPose): Promise<{ data: Buffer; width: number; height: number }> {
  let image = sharp(await headFrame(HEAD_FACE, pose.yaw));
  if (pose.closer && pose.closer > 1) {
    // Closer: the middle of the picture, enlarged back to the frame size.
    const { width = 480, height = 600 } = await sharp(await headFrame(HEAD_FACE, pose.yaw)).metadata();
    const [w, h] = [Math.round(width / pose.closer), Math.round(height / pose.closer)];
    const cropped = await image
      .extract({ left: Math.round((width - w) / 2), top: Math.round((height - h) / 2), width: w, height: h })
      .resize(width, height)
      .toBuffer();
    image = sharp(cropped);
  }
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: Buffer.from(rgbToI420(data, info.width, info.height) as Uint8Array), width: info.width, height: info.height };
}

/** Writes the fake camera's y4m file: the head in `poses`, one a frame. */
export async function writeHeadCamera(file: string, poses: readonly HeadPose[]): Promise<void> {
  const frames = new Map<string, { data: Buffer; width: number; height: number }>();
  const parts: Buffer[] = [];
  for (const pose of poses) {
    const key = `${pose.yaw}/${pose.closer ?? 1}`;
    if (!frames.has(key)) frames.set(key, await poseFrame(pose));
    parts.push(Buffer.from('FRAME\n'), frames.get(key)!.data);
  }
  const { width, height } = frames.values().next().value!;
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F${HEAD_FPS}:1 Ip A1:1 C420jpeg\n`), ...parts]));
}

/**
 * Writes the fake camera's y4m file from still pictures (any format sharp reads), one a frame at
 * {@link HEAD_FPS}, each cut to an even size (I420 halves both sides).
 */
export async function writeCameraFrames(file: string, images: readonly Buffer[]): Promise<void> {
  const parts: Buffer[] = [];
  let size = '';
  for (const image of images) {
    const meta = await sharp(image).metadata();
    const [w, h] = [(meta.width ?? 0) & ~1, (meta.height ?? 0) & ~1];
    const { data } = await sharp(image).extract({ left: 0, top: 0, width: w, height: h }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    size ||= `W${w} H${h}`;
    parts.push(Buffer.from('FRAME\n'), Buffer.from(rgbToI420(data, w, h) as Uint8Array));
  }
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 ${size} F${HEAD_FPS}:1 Ip A1:1 C420jpeg\n`), ...parts]));
}

/** The Voice step's buttons, in the page's language. */
export interface VoiceLabels {
  ask: string;
  record: string;
  stop: string;
}

/**
 * On the Voice step (consent given): asks for the phrase, puts `say(digits)` on the fake
 * microphone `microphone`, records it and sends it. Returns the digits shown.
 */
export async function readPhraseAloud(page: Page, microphone: string, labels: VoiceLabels, say: (digits: string) => string): Promise<string> {
  await page.getByRole('button', { name: labels.ask }).click();
  const digits = (await page.locator('verify-step-voice #voice-digits-text').textContent())!.replace(/\s/g, '');
  if (!/^\d{6}$/.test(digits)) throw new Error(`the phrase shown is not six digits: ${digits}`);
  // Chromium opens the file when the step opens the microphone: it plays what is written now, in
  // a loop; the silence after the speech keeps the loop's second reading out of the recording.
  // The file starts playing when the microphone opens, a moment before MediaRecorder starts: on a
  // loaded machine that moment swallowed the first digit behind 0.2 s of silence, so 1.2 s lead in.
  const speech = speak(say(digits), { pad: 1.2 });
  writeFileSync(microphone, speak(say(digits), { pad: 1.2, tail: 5 }));
  await page.getByRole('button', { name: labels.record }).click();
  await page.locator('verify-step-voice .recording').waitFor();
  // The whole phrase (16-bit samples at 16 kHz after the header), and a little more, before stopping.
  await page.waitForTimeout((speech.length - 44) / 32 + 300);
  await page.getByRole('button', { name: labels.stop }).click();
  return digits;
}
