/**
 * The texts of the messages the service sends to end users: the magic link (e-mail, SMS) and the
 * one-time codes of the e-mail and SMS steps. Plain text, branded with the account name, localised
 * in the widget's locales, and carrying nothing personal beyond what the message is for (no names,
 * no ids: only the link or the code).
 */

/** Locales the messages (and the widget) ship. */
export const MESSAGE_LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'ar'] as const;
export type MessageLocale = (typeof MESSAGE_LOCALES)[number];

interface Texts {
  linkSubject: (account: string) => string;
  linkBody: (account: string, link: string, hours: number) => string;
  linkSms: (account: string, link: string) => string;
  codeSubject: (account: string) => string;
  codeBody: (account: string, code: string, minutes: number) => string;
  codeSms: (account: string, code: string, minutes: number) => string;
  ignore: string;
}

const TEXTS: Record<MessageLocale, Texts> = {
  en: {
    linkSubject: (a) => `${a}: verify your identity`,
    linkBody: (a, l, h) => `${a} asks you to verify your identity.\n\nOpen this link to start:\n${l}\n\nThe link works for ${h} hours.`,
    linkSms: (a, l) => `${a}: verify your identity here: ${l}`,
    codeSubject: (a) => `${a}: your verification code`,
    codeBody: (a, c, m) => `Your ${a} verification code is:\n\n${c}\n\nIt expires in ${m} minutes.`,
    codeSms: (a, c, m) => `${c} is your ${a} verification code. It expires in ${m} minutes.`,
    ignore: 'If you did not expect this message, you can ignore it.',
  },
  es: {
    linkSubject: (a) => `${a}: verifique su identidad`,
    linkBody: (a, l, h) => `${a} le pide que verifique su identidad.\n\nAbra este enlace para empezar:\n${l}\n\nEl enlace es válido durante ${h} horas.`,
    linkSms: (a, l) => `${a}: verifique su identidad aquí: ${l}`,
    codeSubject: (a) => `${a}: su código de verificación`,
    codeBody: (a, c, m) => `Su código de verificación de ${a} es:\n\n${c}\n\nCaduca en ${m} minutos.`,
    codeSms: (a, c, m) => `${c} es su código de verificación de ${a}. Caduca en ${m} minutos.`,
    ignore: 'Si no esperaba este mensaje, puede ignorarlo.',
  },
  fr: {
    linkSubject: (a) => `${a} : vérifiez votre identité`,
    linkBody: (a, l, h) => `${a} vous demande de vérifier votre identité.\n\nOuvrez ce lien pour commencer :\n${l}\n\nLe lien est valable ${h} heures.`,
    linkSms: (a, l) => `${a} : vérifiez votre identité ici : ${l}`,
    codeSubject: (a) => `${a} : votre code de vérification`,
    codeBody: (a, c, m) => `Votre code de vérification ${a} est :\n\n${c}\n\nIl expire dans ${m} minutes.`,
    codeSms: (a, c, m) => `${c} est votre code de vérification ${a}. Il expire dans ${m} minutes.`,
    ignore: 'Si vous n’attendiez pas ce message, vous pouvez l’ignorer.',
  },
  de: {
    linkSubject: (a) => `${a}: Bestätigen Sie Ihre Identität`,
    linkBody: (a, l, h) =>
      `${a} bittet Sie, Ihre Identität zu bestätigen.\n\nÖffnen Sie diesen Link, um zu beginnen:\n${l}\n\nDer Link ist ${h} Stunden gültig.`,
    linkSms: (a, l) => `${a}: Bestätigen Sie Ihre Identität hier: ${l}`,
    codeSubject: (a) => `${a}: Ihr Bestätigungscode`,
    codeBody: (a, c, m) => `Ihr Bestätigungscode für ${a} lautet:\n\n${c}\n\nEr läuft in ${m} Minuten ab.`,
    codeSms: (a, c, m) => `${c} ist Ihr Bestätigungscode für ${a}. Er läuft in ${m} Minuten ab.`,
    ignore: 'Wenn Sie diese Nachricht nicht erwartet haben, können Sie sie ignorieren.',
  },
  pt: {
    linkSubject: (a) => `${a}: verifique a sua identidade`,
    linkBody: (a, l, h) => `${a} pede-lhe que verifique a sua identidade.\n\nAbra este link para começar:\n${l}\n\nO link é válido durante ${h} horas.`,
    linkSms: (a, l) => `${a}: verifique a sua identidade aqui: ${l}`,
    codeSubject: (a) => `${a}: o seu código de verificação`,
    codeBody: (a, c, m) => `O seu código de verificação ${a} é:\n\n${c}\n\nExpira em ${m} minutos.`,
    codeSms: (a, c, m) => `${c} é o seu código de verificação ${a}. Expira em ${m} minutos.`,
    ignore: 'Se não esperava esta mensagem, pode ignorá-la.',
  },
  ar: {
    linkSubject: (a) => `${a}: تحقق من هويتك`,
    linkBody: (a, l, h) => `يطلب منك ${a} التحقق من هويتك.\n\nافتح هذا الرابط للبدء:\n${l}\n\nالرابط صالح لمدة ${h} ساعة.`,
    linkSms: (a, l) => `${a}: تحقق من هويتك هنا: ${l}`,
    codeSubject: (a) => `${a}: رمز التحقق الخاص بك`,
    codeBody: (a, c, m) => `رمز التحقق الخاص بك لدى ${a} هو:\n\n${c}\n\nتنتهي صلاحيته خلال ${m} دقائق.`,
    codeSms: (a, c, m) => `${c} هو رمز التحقق الخاص بك لدى ${a}. تنتهي صلاحيته خلال ${m} دقائق.`,
    ignore: 'إذا لم تكن تتوقع هذه الرسالة، يمكنك تجاهلها.',
  },
};

/** The best of our locales for a BCP 47 tag or an `Accept-Language` header; English otherwise. */
export function pickLocale(...candidates: (string | null | undefined)[]): MessageLocale {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const tags = candidate
      .split(',')
      .map((part) => {
        const [tag = '', ...params] = part.trim().split(';');
        const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find((v) => v !== undefined);
        return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
      })
      .filter((t) => t.tag && t.q > 0)
      .sort((a, b) => b.q - a.q);
    for (const { tag } of tags) {
      const primary = tag.split('-')[0] as MessageLocale;
      if ((MESSAGE_LOCALES as readonly string[]).includes(primary)) return primary;
    }
  }
  return 'en';
}

/** One message ready for a sender: `subject` for e-mail, `text` as the whole body. */
export interface RenderedMessage {
  locale: MessageLocale;
  subject: string;
  text: string;
  /** The user the message is for: the outbox records it, so deleting the user deletes the message. */
  userId?: number;
}

export function magicLinkEmail(locale: MessageLocale, account: string, link: string, hours: number): RenderedMessage {
  const t = TEXTS[locale];
  return { locale, subject: t.linkSubject(account), text: `${t.linkBody(account, link, hours)}\n\n${t.ignore}\n` };
}

export function magicLinkSms(locale: MessageLocale, account: string, link: string): RenderedMessage {
  const t = TEXTS[locale];
  return { locale, subject: t.linkSubject(account), text: t.linkSms(account, link) };
}

export function codeEmail(locale: MessageLocale, account: string, code: string, minutes: number): RenderedMessage {
  const t = TEXTS[locale];
  return { locale, subject: t.codeSubject(account), text: `${t.codeBody(account, code, minutes)}\n\n${t.ignore}\n` };
}

export function codeSms(locale: MessageLocale, account: string, code: string, minutes: number): RenderedMessage {
  const t = TEXTS[locale];
  return { locale, subject: t.codeSubject(account), text: t.codeSms(account, code, minutes) };
}
