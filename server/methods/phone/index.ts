import { codeMethod } from '../code/method.js';

/** Phone (spec method 2): a code sent by SMS. */
export const phoneMethod = codeMethod('phone', [2]);
