import { faceMethod } from '../face/method.js';

/** Selfie (our method 22). Biometric ID (spec method 13) is a passkey now (methods/biometric_id). */
export const selfieMethod = faceMethod('selfie', [22]);
