/** A face found in a frame by the widget's detector (its own file: no DOM, so the eval can judge frames as the widget does). */
export interface DetectedFace {
  box: { x: number; y: number; width: number; height: number };
  /** BlazeFace keypoints: right eye, left eye, nose tip, mouth, right ear tragion, left ear tragion. */
  keypoints: Array<{ x: number; y: number }>;
  score: number;
}
