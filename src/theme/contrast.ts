/**
 * WCAG contrast for the account's brand colour: the colour stays the brand's where it reads, and
 * is lightened (on a dark background) or darkened (on a light one) only as far as it must be for
 * text in it, or on it, to meet AA (4.5:1).
 */

type Rgb = [number, number, number];

const DARK_TEXT = '#0b0e14';
const LIGHT_TEXT = '#ffffff';

/** `#rgb` or `#rrggbb` → channels 0..255; undefined for anything else. */
export function parseHex(color: string): Rgb | undefined {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return undefined;
  const hex = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** Relative luminance (WCAG 2.x). */
export function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrast(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Whether a background is dark enough that light text goes on it. */
export function isDark(rgb: Rgb): boolean {
  return luminance(rgb) < 0.18;
}

/**
 * The brand colour as shown on `background`: itself when it already reads there (4.5:1, as the
 * colour of text such as a secondary button's), else mixed towards white or black in small steps
 * until it does; and the text colour for on top of it (white or near-black, whichever reads better).
 */
export function readableBrand(primary: string, background: string): { primary: string; onPrimary: string } | undefined {
  const brand = parseHex(primary);
  const bg = parseHex(background);
  if (!brand || !bg) return undefined;
  const towards: Rgb = isDark(bg) ? [255, 255, 255] : [0, 0, 0];
  let color = brand;
  for (let step = 1; step <= 20 && contrast(color, bg) < 4.5; step++) {
    const t = step / 20;
    color = brand.map((c, i) => c + (towards[i]! - c) * t) as Rgb;
  }
  const dark = parseHex(DARK_TEXT)!;
  const light = parseHex(LIGHT_TEXT)!;
  return { primary: toHex(color), onPrimary: contrast(color, light) >= contrast(color, dark) ? LIGHT_TEXT : DARK_TEXT };
}
