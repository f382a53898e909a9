import { faceMethod } from '../face/method.js';

/** Selfie (our method 22); a template's Biometric ID (spec method 13) is captured the same way. */
export const selfieMethod = faceMethod('selfie', [22, 13]);
