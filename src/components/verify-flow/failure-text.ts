import { msg } from '@lit/localize';
import type { VerifyErrorCode } from '../../events/events.js';

/** The title, explanation and retry label of the flow's failure screen for an error code. */
export function failureText(code: VerifyErrorCode | undefined): { title: string; body: string; retry: string } {
  const retry = msg('Try again', { id: 'flow.retry' });
  switch (code) {
    case 'link_expired':
      return {
        title: msg('This link has expired', { id: 'flow.failed.expired' }),
        body: msg('Ask for a new verification link and open it again.', { id: 'flow.failed.new-link' }),
        retry,
      };
    case 'link_invalid':
      return {
        title: msg('This link is not valid', { id: 'flow.failed.invalid' }),
        body: msg('Check that you opened the whole link, or ask for a new one.', { id: 'flow.failed.invalid-body' }),
        retry,
      };
    case 'link_revoked':
      return {
        title: msg('This link can no longer be used', { id: 'flow.failed.revoked' }),
        body: msg('Ask for a new verification link and open it again.', { id: 'flow.failed.new-link' }),
        retry,
      };
    case 'session_expired':
      return {
        title: msg('Your session has ended', { id: 'flow.failed.session' }),
        body: msg('Open your verification link again to continue where you left off.', { id: 'flow.failed.session-body' }),
        retry,
      };
    case 'network':
      return {
        title: msg('No connection', { id: 'flow.failed.network' }),
        body: msg('Check your internet connection and try again.', { id: 'flow.failed.network-body' }),
        retry,
      };
    case 'consent_declined':
      return {
        title: msg('You chose not to continue', { id: 'consent.declined.title' }),
        body: msg(
          'Without your consent nothing is captured, so your identity cannot be verified here. You can close this page now, or read the consent again.',
          {
            id: 'consent.declined.body',
          },
        ),
        retry: msg('Read the consent again', { id: 'consent.declined.again' }),
      };
    default:
      return {
        title: msg('Something went wrong', { id: 'flow.failed.title' }),
        body: msg('Please try again in a moment.', { id: 'flow.failed.body' }),
        retry,
      };
  }
}
