/** A face found in a frame by the widget's detector (its own file: no DOM, so the eval can judge frames as the widget does). */
export interface DetectedFace {
  box: { x: number; y: number; width: number; height: number };
  /** BlazeFace keypoints: right eye, left eye, nose tip, mouth, right ear tragion, left ear tragion. */
  keypoints: Array<{ x: number; y: number }>;
  score: number;
  /**
   * The frame's width over its height: box and keypoints are normalised by different sides, so a
   * slanted line (a tilted head's eyes) needs it to be measured. Absent: taken as 1.
   */
  aspect?: number;
}
