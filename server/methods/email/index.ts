import { codeMethod } from '../code/method.js';

/** Email (spec method 1): a code sent to the user's address. */
export const emailMethod = codeMethod('email', [1]);
