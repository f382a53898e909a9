/** Which kind of device the camera is on, so help can speak of it as the user holds it or sits at it. */

/** `phone`: held in the hand (phones and tablets); `computer`: a webcam the user sits in front of. */
export type CameraDevice = 'phone' | 'computer';

/** What {@link cameraDevice} reads of the browser (a parameter, so tests can give it). */
export interface DeviceHints {
  readonly userAgent: string;
  readonly maxTouchPoints: number;
  /** User-Agent Client Hints (Chromium); absent elsewhere. */
  readonly mobile?: boolean;
  /** The primary pointer is a finger with no hover (`(pointer: coarse) and (hover: none)`). */
  readonly touchOnly: boolean;
}

/** The browser's own hints. */
function browserHints(): DeviceHints {
  const nav = navigator as Navigator & { userAgentData?: { mobile: boolean } };
  return {
    userAgent: nav.userAgent,
    maxTouchPoints: nav.maxTouchPoints,
    ...(nav.userAgentData ? { mobile: nav.userAgentData.mobile } : {}),
    touchOnly: matchMedia('(pointer: coarse) and (hover: none)').matches,
  };
}

/**
 * The device the page runs on: Chromium says so in its client hints, other browsers in their user
 * agent; iPadOS reports a Mac, and only its touch screen tells it apart. A touch-only screen is a
 * phone or a tablet (a laptop's touch screen is not its primary pointer).
 */
export function cameraDevice(hints: DeviceHints = browserHints()): CameraDevice {
  if (hints.mobile || hints.touchOnly) return 'phone';
  if (/Android|iPhone|iPad|iPod|Mobile/i.test(hints.userAgent)) return 'phone';
  return /Macintosh/.test(hints.userAgent) && hints.maxTouchPoints > 1 ? 'phone' : 'computer';
}
