/**
 * Loads a step's module on demand, so the flow's initial bundle carries no step, capture or
 * model code.
 */
import type { MethodKey } from '../api/routes.js';

/** Imports the module that defines the step element for `key`. */
export async function loadStep(key: MethodKey | 'other'): Promise<void> {
  switch (key) {
    case 'email':
    case 'phone':
      await import('../steps/code/verify-step-code.js');
      return;
    case 'geolocation':
      await import('../steps/geolocation/verify-step-geolocation.js');
      return;
    case 'knowledge':
      await import('../steps/knowledge/verify-step-knowledge.js');
      return;
    case 'document_id':
      await import('../steps/document/verify-step-document.js');
      return;
    case 'selfie':
    case 'liveness':
      await import('../steps/selfie/verify-step-selfie.js');
      return;
    case 'other':
      return;
  }
}
