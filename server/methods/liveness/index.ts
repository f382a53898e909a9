import { faceMethod } from '../face/method.js';

/** Liveness (our method 20): a selfie with a random head-movement challenge. */
export const livenessMethod = faceMethod('liveness', [20]);
