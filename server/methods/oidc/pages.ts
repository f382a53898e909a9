import { escapeHtml, frame } from '../../http/hosted/pages.js';
import type { MessageLocale } from '../../notify/messages.js';
import type { AccountSettings } from '../../store/repos/settings-repo.js';
import texts from './sign-in-pages.json' with { type: 'json' };

/** What the sign-in window says when the provider has sent the user back (or the link is refused). */
export type SignInPage = 'done' | 'cancelled' | 'provider_error' | 'invalid_response' | 'expired' | 'used' | 'invalid';

type Texts = Record<SignInPage, { title: string; text: string }> & { back: string };

// The texts are data, one object per locale, kept in JSON beside this file.
const TEXTS: Record<MessageLocale, Texts> = texts;

/**
 * The sign-in window's last page. Opened by the step (it has an opener), it closes itself: the
 * step reads the outcome from the session and says it there. Opened otherwise, it stays and says
 * where to go.
 */
export function signInPage(settings: AccountSettings, nonce: string, page: SignInPage, locale: MessageLocale): string {
  const t = TEXTS[locale];
  const { title, text } = t[page];
  const body = `<h1>${escapeHtml(title)}</h1>\n<p role="status">${escapeHtml(text)}</p>\n<p class="muted">${escapeHtml(t.back)}</p>`;
  return frame(settings, nonce, locale, title, body, `<script nonce="${nonce}">if (window.opener) window.close();</script>`);
}
