/**
 * Runtime localisation with @lit/localize: English is the source; other locales load lazily.
 * `@lit/localize` keeps one active locale per page, so several flows on one page share it.
 */
import { configureLocalization } from '@lit/localize';

/** Locales the widget ships. */
export const LOCALES = ['en', 'es', 'fr', 'de', 'pt', 'ar'] as const;
/** One of {@link LOCALES}. */
export type Locale = (typeof LOCALES)[number];
/** Right-to-left locales. */
export const RTL_LOCALES: ReadonlySet<Locale> = new Set<Locale>(['ar']);

const loaders = {
  es: () => import('./locales/es.js'),
  fr: () => import('./locales/fr.js'),
  de: () => import('./locales/de.js'),
  pt: () => import('./locales/pt.js'),
  ar: () => import('./locales/ar.js'),
} as const;

const { getLocale, setLocale } = configureLocalization({
  sourceLocale: 'en',
  targetLocales: ['es', 'fr', 'de', 'pt', 'ar'],
  loadLocale: (locale) => loaders[locale as keyof typeof loaders](),
});

export { getLocale };

/** The best shipped locale for a list of BCP 47 tags (first match wins), else English. */
export function pickLocale(...candidates: Array<string | null | undefined>): Locale {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const base = candidate.toLowerCase().split(/[-_]/)[0] as Locale;
    if ((LOCALES as readonly string[]).includes(base)) return base;
  }
  return 'en';
}

/** Switches the page's widget locale (no-op when already active). */
export async function useLocale(locale: Locale): Promise<void> {
  if (getLocale() !== locale) await setLocale(locale);
}

/** `rtl` or `ltr` for a locale. */
export function directionOf(locale: Locale): 'rtl' | 'ltr' {
  return RTL_LOCALES.has(locale) ? 'rtl' : 'ltr';
}
