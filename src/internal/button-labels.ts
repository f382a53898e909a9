/**
 * The few labels of `<verify-button>`, in the widget's locales. A plain table rather than
 * `@lit/localize` so the single-file script-tag embed stays small (see the component's JSDoc).
 */
const LABELS = {
  en: { open: 'Verify your identity', close: 'Close' },
  es: { open: 'Verifica tu identidad', close: 'Cerrar' },
  fr: { open: 'Vérifier votre identité', close: 'Fermer' },
  de: { open: 'Identität bestätigen', close: 'Schließen' },
  pt: { open: 'Verifique sua identidade', close: 'Fechar' },
  ar: { open: 'تحقق من هويتك', close: 'إغلاق' },
} as const;

/** A label key. */
export type ButtonLabelKey = keyof (typeof LABELS)['en'];

/** The label for `key` in the language of `lang` (a BCP 47 tag), English when unknown. */
export function buttonLabel(lang: string, key: ButtonLabelKey): string {
  const base = lang.toLowerCase().split('-')[0] as keyof typeof LABELS;
  return (LABELS[base] ?? LABELS.en)[key];
}
