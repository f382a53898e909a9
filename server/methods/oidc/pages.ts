import { escapeHtml, frame } from '../../http/hosted/pages.js';
import type { MessageLocale } from '../../notify/messages.js';
import type { AccountSettings } from '../../store/repos/settings-repo.js';

/** What the sign-in window says when the provider has sent the user back (or the link is refused). */
export type SignInPage = 'done' | 'cancelled' | 'provider_error' | 'invalid_response' | 'expired' | 'used' | 'invalid';

type Texts = Record<SignInPage, { title: string; text: string }> & { back: string };

const TEXTS: Record<MessageLocale, Texts> = {
  en: {
    done: { title: 'You are signed in', text: 'The sign-in was received.' },
    cancelled: { title: 'Sign-in cancelled', text: 'You did not sign in. You can try again from the verification.' },
    provider_error: { title: 'The sign-in did not work', text: 'The provider could not sign you in. You can try again from the verification.' },
    invalid_response: {
      title: 'The sign-in could not be checked',
      text: 'The answer from the provider failed our checks. You can try again from the verification.',
    },
    expired: { title: 'The sign-in took too long', text: 'Sign-ins must be finished within 10 minutes. You can start again from the verification.' },
    used: { title: 'This sign-in is over', text: 'This sign-in was already used or cancelled. Start again from the verification if you need to.' },
    invalid: {
      title: 'This sign-in is not valid',
      text: 'This page was not opened from your verification, or in another browser. Start again from the verification.',
    },
    back: 'Go back to the verification window to continue; you can close this one.',
  },
  es: {
    done: { title: 'Ha iniciado sesión', text: 'Se ha recibido el inicio de sesión.' },
    cancelled: { title: 'Inicio de sesión cancelado', text: 'No ha iniciado sesión. Puede volver a intentarlo desde la verificación.' },
    provider_error: {
      title: 'El inicio de sesión no ha funcionado',
      text: 'El proveedor no ha podido iniciar su sesión. Puede volver a intentarlo desde la verificación.',
    },
    invalid_response: {
      title: 'No se ha podido comprobar el inicio de sesión',
      text: 'La respuesta del proveedor no ha superado nuestras comprobaciones. Puede volver a intentarlo desde la verificación.',
    },
    expired: {
      title: 'El inicio de sesión ha tardado demasiado',
      text: 'Hay que terminar el inicio de sesión en 10 minutos. Puede empezar de nuevo desde la verificación.',
    },
    used: {
      title: 'Este inicio de sesión ha terminado',
      text: 'Este inicio de sesión ya se usó o se canceló. Empiece de nuevo desde la verificación si lo necesita.',
    },
    invalid: {
      title: 'Este inicio de sesión no es válido',
      text: 'Esta página no se abrió desde su verificación, o se abrió en otro navegador. Empiece de nuevo desde la verificación.',
    },
    back: 'Vuelva a la ventana de la verificación para continuar; puede cerrar esta.',
  },
  fr: {
    done: { title: 'Vous êtes connecté', text: 'La connexion a été reçue.' },
    cancelled: { title: 'Connexion annulée', text: 'Vous ne vous êtes pas connecté. Vous pouvez réessayer depuis la vérification.' },
    provider_error: {
      title: 'La connexion n’a pas fonctionné',
      text: 'Le fournisseur n’a pas pu vous connecter. Vous pouvez réessayer depuis la vérification.',
    },
    invalid_response: {
      title: 'La connexion n’a pas pu être vérifiée',
      text: 'La réponse du fournisseur n’a pas passé nos contrôles. Vous pouvez réessayer depuis la vérification.',
    },
    expired: {
      title: 'La connexion a pris trop de temps',
      text: 'La connexion doit être terminée en 10 minutes. Vous pouvez recommencer depuis la vérification.',
    },
    used: { title: 'Cette connexion est terminée', text: 'Cette connexion a déjà été utilisée ou annulée. Recommencez depuis la vérification si nécessaire.' },
    invalid: {
      title: 'Cette connexion n’est pas valide',
      text: 'Cette page n’a pas été ouverte depuis votre vérification, ou dans un autre navigateur. Recommencez depuis la vérification.',
    },
    back: 'Revenez à la fenêtre de la vérification pour continuer ; vous pouvez fermer celle-ci.',
  },
  de: {
    done: { title: 'Sie sind angemeldet', text: 'Die Anmeldung ist eingegangen.' },
    cancelled: { title: 'Anmeldung abgebrochen', text: 'Sie haben sich nicht angemeldet. Sie können es in der Verifizierung erneut versuchen.' },
    provider_error: {
      title: 'Die Anmeldung hat nicht funktioniert',
      text: 'Der Anbieter konnte Sie nicht anmelden. Sie können es in der Verifizierung erneut versuchen.',
    },
    invalid_response: {
      title: 'Die Anmeldung konnte nicht geprüft werden',
      text: 'Die Antwort des Anbieters hat unsere Prüfungen nicht bestanden. Sie können es in der Verifizierung erneut versuchen.',
    },
    expired: {
      title: 'Die Anmeldung hat zu lange gedauert',
      text: 'Anmeldungen müssen innerhalb von 10 Minuten abgeschlossen werden. Sie können in der Verifizierung neu beginnen.',
    },
    used: {
      title: 'Diese Anmeldung ist beendet',
      text: 'Diese Anmeldung wurde bereits verwendet oder abgebrochen. Beginnen Sie bei Bedarf in der Verifizierung neu.',
    },
    invalid: {
      title: 'Diese Anmeldung ist ungültig',
      text: 'Diese Seite wurde nicht aus Ihrer Verifizierung oder in einem anderen Browser geöffnet. Beginnen Sie in der Verifizierung neu.',
    },
    back: 'Kehren Sie zum Fenster der Verifizierung zurück, um fortzufahren; dieses können Sie schließen.',
  },
  pt: {
    done: { title: 'Sessão iniciada', text: 'O início de sessão foi recebido.' },
    cancelled: { title: 'Início de sessão cancelado', text: 'Não iniciou sessão. Pode tentar de novo a partir da verificação.' },
    provider_error: {
      title: 'O início de sessão não funcionou',
      text: 'O fornecedor não conseguiu iniciar a sua sessão. Pode tentar de novo a partir da verificação.',
    },
    invalid_response: {
      title: 'Não foi possível confirmar o início de sessão',
      text: 'A resposta do fornecedor não passou nas nossas verificações. Pode tentar de novo a partir da verificação.',
    },
    expired: {
      title: 'O início de sessão demorou demasiado',
      text: 'O início de sessão tem de terminar em 10 minutos. Pode recomeçar a partir da verificação.',
    },
    used: { title: 'Este início de sessão terminou', text: 'Este início de sessão já foi usado ou cancelado. Recomece a partir da verificação, se precisar.' },
    invalid: {
      title: 'Este início de sessão não é válido',
      text: 'Esta página não foi aberta a partir da sua verificação, ou foi aberta noutro navegador. Recomece a partir da verificação.',
    },
    back: 'Volte à janela da verificação para continuar; pode fechar esta.',
  },
  ar: {
    done: { title: 'تم تسجيل دخولك', text: 'تم استلام تسجيل الدخول.' },
    cancelled: { title: 'تم إلغاء تسجيل الدخول', text: 'لم تسجّل الدخول. يمكنك المحاولة مرة أخرى من صفحة التحقق.' },
    provider_error: { title: 'لم ينجح تسجيل الدخول', text: 'تعذّر على المزوّد تسجيل دخولك. يمكنك المحاولة مرة أخرى من صفحة التحقق.' },
    invalid_response: { title: 'تعذّر التحقق من تسجيل الدخول', text: 'لم يجتز رد المزوّد عمليات التحقق لدينا. يمكنك المحاولة مرة أخرى من صفحة التحقق.' },
    expired: { title: 'استغرق تسجيل الدخول وقتًا طويلًا', text: 'يجب إنهاء تسجيل الدخول خلال 10 دقائق. يمكنك البدء من جديد من صفحة التحقق.' },
    used: { title: 'انتهى تسجيل الدخول هذا', text: 'تم استخدام تسجيل الدخول هذا أو إلغاؤه من قبل. ابدأ من جديد من صفحة التحقق إذا لزم الأمر.' },
    invalid: { title: 'تسجيل الدخول هذا غير صالح', text: 'لم تُفتح هذه الصفحة من عملية التحقق الخاصة بك، أو فُتحت في متصفح آخر. ابدأ من جديد من صفحة التحقق.' },
    back: 'عُد إلى نافذة التحقق للمتابعة؛ يمكنك إغلاق هذه النافذة.',
  },
};

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
