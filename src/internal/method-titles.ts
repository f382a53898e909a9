import { msg } from '@lit/localize';
import type { MethodKey, MethodView } from '../api/contract.js';

/** The localised title of a method's step. */
export function methodTitle(method: MethodView): string {
  return method.key === 'other' ? method.name : stepTitle(method.key);
}

/** The localised title of the step of a method key the widget has a step for. */
export function stepTitle(key: MethodKey): string {
  switch (key) {
    case 'email':
      return msg('Confirm your e-mail address', { id: 'method.email' });
    case 'phone':
      return msg('Confirm your phone number', { id: 'method.phone' });
    case 'geolocation':
      return msg('Share your location', { id: 'method.geolocation' });
    case 'knowledge':
      return msg('Answer a few questions', { id: 'method.knowledge' });
    case 'document_id':
      return msg('Photograph your ID document', { id: 'method.document' });
    case 'selfie':
      return msg('Take a selfie', { id: 'method.selfie' });
    case 'liveness':
      return msg('Show that it is really you', { id: 'method.liveness' });
  }
}
