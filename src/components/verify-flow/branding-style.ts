import type { Branding } from '../../api/contract.js';
import { isDark, parseHex, readableBrand } from '../../theme/contrast.js';

const BRAND_PROPERTIES = ['--verify-primary', '--verify-on-primary', '--verify-background', '--verify-text'] as const;

/**
 * The account's branding colours as custom properties. A page that themes the flow itself (sets
 * `--verify-primary`, `--verify-background` or `--verify-text` on it or above it) keeps its own
 * value for that property; `applyBranding` puts the account's first anyway (the hosted page).
 *
 * On our own pages (which load `src/theme/tokens.css`, so `--verity-surface` is set) the brand
 * colour is kept readable: in dark mode the page's dark surface and text stay (a brand background
 * meant for light mode would leave the dark tokens unreadable on it) and the brand colour is
 * lightened as far as contrast needs; in light mode it is darkened as far as needed against the
 * brand's background. The text on it (`--verify-on-primary`) is whichever of white or near-black reads.
 */
export function brandingStyle(branding: Branding | null, host: Element, applyBranding: boolean): Record<string, string> {
  if (!branding) return {};
  const page = getComputedStyle(host);
  const style: Record<string, string> = {};
  const take = (name: string, value: string | null) => {
    if (value && (applyBranding || page.getPropertyValue(name).trim() === '')) style[name] = value;
  };
  const surface = page.getPropertyValue('--verity-surface').trim();
  const dark = surface !== '' && isDark(parseHex(surface) ?? [255, 255, 255]);
  let primary = branding.primary_color;
  if (primary && surface !== '') {
    const readable = readableBrand(primary, dark ? surface : (branding.background_color ?? surface));
    if (readable) {
      primary = readable.primary;
      take('--verify-on-primary', readable.onPrimary);
    }
  }
  take('--verify-primary', primary);
  if (!dark) {
    take('--verify-background', branding.background_color);
    take('--verify-text', branding.text_color);
  }
  return style;
}

/**
 * Sets the branding on the flow's wrapper through the CSSOM: the hosted page's strict CSP blocks
 * `style` attributes (Lit's attribute bindings and even styleMap's first render use
 * setAttribute), while `style.setProperty` is allowed.
 */
export function applyBrandingStyle(base: HTMLElement, style: Record<string, string>): void {
  for (const name of BRAND_PROPERTIES) {
    if (style[name]) base.style.setProperty(name, style[name]);
    else base.style.removeProperty(name);
  }
}

/**
 * Paints what a render cannot set: the branding on the wrapper and the progress bar's width, both
 * through the CSSOM (the hosted page's CSP blocks `style` attributes).
 */
export function paintFlow(root: ParentNode, style: Record<string, string>, progress: number | null): void {
  const base = root.querySelector<HTMLElement>('[part="base"]');
  if (base) applyBrandingStyle(base, style);
  const fill = root.querySelector<HTMLElement>('.fill');
  if (fill && progress !== null) fill.style.setProperty('inline-size', `${progress}%`);
}
