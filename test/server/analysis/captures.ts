/**
 * Captures made differently from test/fixtures (issue 20): other identities, other fonts
 * (Liberation, FreeFont from Debian), white card stock, printed field numbers as real AAMVA
 * cards carry them ("4d DLN", "15 SEX"), a camera that auto-exposes white paper to saturation,
 * vignetting, a textured desk, dim scenes, a specular highlight that hides content, blur and
 * low JPEG qualities. The analysis was not tuned on these.
 *
 * Fonts: the families fall back to DejaVu Sans when fonts-liberation2 / fonts-freefont-ttf are
 * not installed; the captures still differ from the fixtures in everything else.
 */
import bwipjs from 'bwip-js/node';
import sharp, { type OverlayOptions } from 'sharp';
import { aamvaPayload } from '../../fixtures/aamva.js';
import { cached } from '../../fixtures/cache.js';
import { addNoise, passportPage, rng } from '../../fixtures/documents.js';
import type { Identity } from '../../fixtures/identities.js';

const base = {
  middle: 'J',
  sex: 'M' as const,
  eyes: 'BRO',
  heightIn: 70,
  dlClass: 'C',
  restrictions: 'NONE',
  endorsements: 'NONE',
  nationality: 'USA',
  face: 0,
};

/** Identities whose document numbers carry letters (WA, IL, MA, AZ and NY formats). */
export const PEOPLE: readonly Identity[] = [
  {
    ...base,
    first: 'HARRIET',
    middle: 'QUINN',
    last: 'OKAFOR',
    dob: '1988-02-29',
    sex: 'F',
    eyes: 'HAZ',
    heightIn: 65,
    street: '2207 NW 58TH ST',
    city: 'SEATTLE',
    state: 'WA',
    zip: '98107',
    dlNumber: 'WDLOK7QX52PB',
    dlClass: 'D',
    restrictions: 'B',
    issued: '2022-05-17',
    expires: '2030-02-28',
    discriminator: 'WDLOK7QX52PB2205170Q12',
    passportNumber: 'C03005988',
    face: 2,
  },
  {
    ...base,
    first: 'DMITRI',
    middle: 'PAVEL',
    last: 'VOLKOV',
    dob: '1979-10-03',
    street: '4400 N BROADWAY ST',
    city: 'CHICAGO',
    state: 'IL',
    zip: '60640',
    dlNumber: 'V41270079276',
    dlClass: 'D',
    endorsements: 'M',
    issued: '2021-10-03',
    expires: '2029-10-03',
    discriminator: '0G21276R0031',
    passportNumber: 'E00742219',
    face: 3,
  },
  {
    ...base,
    first: 'LUCIA',
    middle: 'ROSA',
    last: 'MENDEZ',
    dob: '1996-06-21',
    sex: 'F',
    eyes: 'BLK',
    heightIn: 62,
    street: '17 BEACON HILL RD',
    city: 'WORCESTER',
    state: 'MA',
    zip: '01609',
    dlNumber: 'S90877103',
    dlClass: 'D',
    restrictions: 'J',
    issued: '2023-01-09',
    expires: '2028-06-21',
    discriminator: '01092023 RMV 0S904',
    passportNumber: 'A98712364',
    face: 4,
  },
  {
    ...base,
    first: 'OWEN',
    middle: 'GRANT',
    last: 'PRICE',
    dob: '1968-12-11',
    eyes: 'GRY',
    heightIn: 73,
    street: '9100 E SAGUARO BLVD',
    city: 'SCOTTSDALE',
    state: 'AZ',
    zip: '85258',
    dlNumber: 'D08954796',
    dlClass: 'A',
    endorsements: 'T',
    restrictions: 'B',
    issued: '2020-12-11',
    expires: '2032-12-11',
    discriminator: '4X05DF0GQ2L9',
    passportNumber: 'G10300588',
    face: 5,
  },
];

const STATES: Record<string, string> = { WA: 'Washington', IL: 'Illinois', MA: 'Massachusetts', AZ: 'Arizona' };
/** Font families the captures are printed in, one per person. */
export const FONTS = ['Liberation Sans', 'FreeSans', 'Liberation Serif', 'DejaVu Sans Condensed'] as const;

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');
const us = (iso: string): string => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const W = 1012;
const H = 638;

/**
 * A licence front on white stock in the AAMVA card design: field numbers before each label,
 * labels set tight against their values, the state name in mixed case in the header.
 */
export async function whiteFront(id: Identity, font: string): Promise<Buffer> {
  const h = `${Math.floor(id.heightIn / 12)}'-${String(id.heightIn % 12).padStart(2, '0')}"`;
  const f = (x: number, y: number, num: string, label: string, value: string, size = 26): string =>
    `<text x="${x}" y="${y}" font-family="${font}" font-size="15" fill="#b03030">${esc(num)}</text>` +
    `<text x="${x + 22}" y="${y}" font-family="${font}" font-size="17" fill="#333">${esc(label)}</text>` +
    `<text x="${x + 26 + label.length * 10}" y="${y}" font-family="${font}" font-weight="bold" font-size="${size}" fill="#0a0a0a">${esc(value)}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <rect width="${W}" height="${H}" rx="34" fill="#ffffff"/>
  <text x="36" y="62" font-family="${font}" font-weight="bold" font-size="46" fill="#0b5d3b">${esc(STATES[id.state] ?? id.state)}</text>
  <text x="${W - 36}" y="58" text-anchor="end" font-family="${font}" font-size="28" fill="#0b5d3b">DRIVER LICENSE</text>
  <rect x="30" y="80" width="${W - 60}" height="3" fill="#0b5d3b"/>
  ${f(340, 140, '4d', 'DLN', id.dlNumber, 32)}
  ${f(340, 186, '1', '', id.last, 30)}
  ${f(340, 222, '2', '', `${id.first} ${id.middle}`, 26)}
  ${f(340, 262, '8', '', id.street, 22)}
  <text x="362" y="292" font-family="${font}" font-weight="bold" font-size="22" fill="#0a0a0a">${esc(`${id.city}, ${id.state} ${id.zip}`)}</text>
  ${f(340, 336, '3', 'DOB', us(id.dob), 28)}
  ${f(680, 336, '4b', 'EXP', us(id.expires), 24)}
  ${f(340, 378, '4a', 'ISS', us(id.issued), 22)}
  ${f(680, 378, '9', 'CLASS', id.dlClass, 22)}
  ${f(340, 420, '12', 'RSTR', id.restrictions, 22)}
  ${f(680, 420, '9a', 'END', id.endorsements, 22)}
  ${f(340, 462, '15', 'SEX', id.sex, 22)}
  ${f(500, 462, '16', 'HGT', h, 22)}
  ${f(680, 462, '18', 'EYES', id.eyes, 22)}
  ${f(340, 504, '5', 'DD', id.discriminator, 20)}
  <text x="${W - 50}" y="600" text-anchor="end" font-family="FreeSerif" font-style="italic" font-size="38" fill="#203050">${esc(`${id.first} ${id.last}`)}</text>
  <rect x="40" y="110" width="270" height="340" fill="#c9ccd2"/><circle cx="175" cy="240" r="70" fill="#8a7060"/><rect x="95" y="320" width="160" height="130" rx="60" fill="#5a4a40"/>
</svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).png().toBuffer();
}

/** A licence back on white stock: the PDF417 in its white quiet zone and little else. */
export async function whiteBack(id: Identity, font: string): Promise<Buffer> {
  const symbol = await bwipjs.toBuffer({
    bcid: 'pdf417',
    text: aamvaPayload(id),
    scale: 2,
    height: 3,
    columns: 13,
    eclevel: 4,
    binarytext: true,
    paddingwidth: 24,
    paddingheight: 24,
    backgroundcolor: 'FFFFFF',
  } as Parameters<typeof bwipjs.toBuffer>[0]);
  const bar = await sharp(symbol).resize({ width: 930, height: 360, fit: 'inside', kernel: 'nearest' }).toBuffer({ resolveWithObject: true });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}">
  <rect width="${W}" height="${H}" rx="34" fill="#ffffff"/>
  <text x="40" y="${H - 40}" font-family="${font}" font-size="18" fill="#444">${esc(`ORGAN DONOR   ${id.dlNumber}`)}</text>
</svg>`;
  return sharp(Buffer.from(svg))
    .composite([{ input: bar.data, left: Math.round((W - bar.info.width) / 2), top: 60 }])
    .flatten({ background: '#ffffff' })
    .png()
    .toBuffer();
}

/** The passport page of the fixtures (its layout), photographed by {@link camera}. */
export function passport(id: Identity): Promise<Buffer> {
  return passportPage(id);
}

/** How {@link camera} photographs a document. */
export interface CameraOptions {
  readonly seed: number;
  /** Frame size (default 1440x1080). */
  readonly width?: number;
  readonly height?: number;
  /** Document width as a fraction of the frame (default 0.78). */
  readonly scale?: number;
  readonly angle?: number;
  /** Sensor gain: 1.12 puts white paper at 255 (auto-exposure on a white card), 0.3 is a dim room. */
  readonly gain?: number;
  /** Corner darkening (0 = none, 0.35 = strong). */
  readonly vignette?: number;
  readonly noise?: number;
  readonly blur?: number;
  readonly jpeg?: number;
  /** A specular highlight (radius as a fraction of the document width) centred on (fx, fy) of the document. */
  readonly glare?: { readonly fx: number; readonly fy: number; readonly radius: number };
}

async function desk(w: number, h: number, seed: number): Promise<Buffer> {
  // Grey-green blotches of several sizes, blurred: a textured desk unlike the fixtures' gradient.
  const rand = rng(seed);
  const blobs = Array.from({ length: 40 }, () => {
    const c = Math.round(60 + rand() * 70);
    return `<circle cx="${Math.round(rand() * w)}" cy="${Math.round(rand() * h)}" r="${Math.round(20 + rand() * 160)}" fill="rgb(${c},${c + 8},${c - 6})" opacity="0.6"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#4d5547"/>${blobs}</svg>`;
  return sharp(Buffer.from(svg)).blur(6).png().toBuffer();
}

/** Photographs a flat document (PNG) and returns a JPEG. */
export async function camera(doc: Buffer, o: CameraOptions): Promise<Buffer> {
  const fw = o.width ?? 1440;
  const fh = o.height ?? 1080;
  const meta = await sharp(doc).metadata();
  const dw = Math.round(fw * (o.scale ?? 0.78));
  const dh = Math.round((dw * meta.height!) / meta.width!);
  const placed = await sharp(doc)
    .resize(dw, dh)
    .ensureAlpha()
    .rotate(o.angle ?? 0, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer({ resolveWithObject: true });
  const left = Math.round((fw - placed.info.width) / 2);
  const top = Math.round((fh - placed.info.height) / 2);
  const layers: OverlayOptions[] = [{ input: placed.data, left, top }];
  if (o.glare) {
    // Light added on top of ink and paper alike: a saturated core fading over a wide halo.
    const cx = Math.round(fw / 2 + (o.glare.fx - 0.5) * dw);
    const cy = Math.round(fh / 2 + (o.glare.fy - 0.5) * dh);
    const r = Math.round(o.glare.radius * dw);
    const g = `<svg xmlns="http://www.w3.org/2000/svg" width="${fw}" height="${fh}"><defs><radialGradient id="s"><stop offset="0" stop-color="#fff" stop-opacity="1"/><stop offset="0.45" stop-color="#fff" stop-opacity="1"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs><ellipse cx="${cx}" cy="${cy}" rx="${r}" ry="${Math.round(r * 0.7)}" fill="url(#s)"/></svg>`;
    layers.push({ input: Buffer.from(g), left: 0, top: 0 });
  }
  let img = sharp(await desk(fw, fh, o.seed)).composite(layers);
  if (o.blur) img = sharp(await img.png().toBuffer()).blur(o.blur);
  const { data, info } = await img.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const gain = o.gain ?? 1;
  const vig = o.vignette ?? 0;
  const half = Math.hypot(fw / 2, fh / 2);
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const d = Math.hypot(x - fw / 2, y - fh / 2) / half;
      const k = gain * (1 - vig * d * d);
      const i = (y * info.width + x) * 3;
      for (let c = 0; c < 3; c++) data[i + c] = Math.min(255, Math.round(data[i + c]! * k));
    }
  }
  addNoise(data, o.noise ?? 3, o.seed);
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } })
    .jpeg({ quality: o.jpeg ?? 80 })
    .toBuffer();
}

/** A named capture, cached like the fixtures (never committed). */
export function capture(name: string, make: () => Promise<Buffer>): Promise<Buffer> {
  return cached(`varied/${name}.jpg`, make);
}

/** Where {@link camera} puts a document point (document px) in the frame, for an unrotated capture. */
export function framePoint(x: number, y: number, o: { width?: number; height?: number; scale?: number } = {}): [number, number] {
  const fw = o.width ?? 1440;
  const fh = o.height ?? 1080;
  const k = (fw * (o.scale ?? 0.78)) / W;
  return [Math.round((fw - W * k) / 2 + x * k), Math.round((fh - Math.round(H * k)) / 2 + y * k)];
}

/**
 * A forger's edit: a patch filled with the paper's own colour (sampled just right of the box) and new
 * text in the card's font, pasted over a field of a photographed card and saved again as JPEG.
 */
export async function pasteOver(photo: Buffer, box: { left: number; top: number; width: number; height: number }, text: string, font: string): Promise<Buffer> {
  // stats() ignores queued operations: cut the sample out first (architecture.md, "Known traps").
  const sample = await sharp(photo)
    .extract({ left: box.left + box.width + 8, top: box.top, width: 40, height: box.height })
    .png()
    .toBuffer();
  const [r, g, b] = (await sharp(sample).stats()).channels.map((c) => Math.round(c.mean));
  const patch = `<svg xmlns="http://www.w3.org/2000/svg" width="${box.width}" height="${box.height}"><rect width="100%" height="100%" fill="rgb(${r},${g},${b})"/><text x="3" y="${Math.round(box.height * 0.8)}" font-family="${font}" font-weight="bold" font-size="${Math.round(box.height * 0.75)}" fill="#141414">${esc(text)}</text></svg>`;
  return sharp(photo)
    .composite([{ input: Buffer.from(patch), left: box.left, top: box.top }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The named captures the tests use, person `p` of {@link PEOPLE} printed in `FONTS[p]`. */
export const CAPTURES = {
  /** Licence back, the camera exposing for the white card: paper and quiet zone at 255. */
  backAuto: (p: number) =>
    capture(`back-${p}-auto`, async () =>
      camera(await whiteBack(PEOPLE[p]!, FONTS[p]!), { seed: p + 1, gain: 1.12, angle: p * 2 - 3, vignette: 0.15, jpeg: 75 }),
    ),
  /** Licence back, heavily noisy and compressed (a small sensor in a dim room, denoise off). */
  backNoisy: (p: number) =>
    capture(`back-${p}-noisy`, async () =>
      camera(await whiteBack(PEOPLE[p]!, FONTS[p]!), { seed: p + 61, gain: 0.9, angle: 1 - p, noise: 22, jpeg: 60, blur: 0.8 }),
    ),
  /** Licence back out of focus: nothing on it can be read. */
  backBlurred: (p: number) =>
    capture(`back-${p}-blur`, async () => camera(await whiteBack(PEOPLE[p]!, FONTS[p]!), { seed: p + 41, gain: 1.05, blur: 4, jpeg: 80 })),
  /** Licence front on white stock, auto-exposed. */
  frontAuto: (p: number) =>
    capture(`front-${p}-auto`, async () => camera(await whiteFront(PEOPLE[p]!, FONTS[p]!), { seed: p + 11, gain: 1.1, angle: 2 - p, vignette: 0.2, jpeg: 80 })),
  /** Licence front uploaded small (900x675), as phone web uploads often are. */
  frontSmall: (p: number) =>
    capture(`front-${p}-small`, async () =>
      camera(await whiteFront(PEOPLE[p]!, FONTS[p]!), { seed: p + 81, width: 900, height: 675, gain: 1.0, angle: 1, vignette: 0.15, jpeg: 80 }),
    ),
  /** Licence front with a specular highlight over the name, address and date of birth. */
  frontGlare: (p: number) =>
    capture(`front-${p}-glare`, async () =>
      camera(await whiteFront(PEOPLE[p]!, FONTS[p]!), { seed: p + 21, gain: 1.0, angle: 1, jpeg: 80, glare: { fx: 0.6, fy: 0.4, radius: 0.2 } }),
    ),
  /** Licence front exposed below saturation (the paper keeps its noise), unrotated for {@link framePoint}. */
  frontPlain: (p: number) => capture(`front-${p}-plain`, async () => camera(await whiteFront(PEOPLE[p]!, FONTS[p]!), { seed: p + 51, gain: 0.85, jpeg: 85 })),
  /** Passport page in a dim room: dark, but every character still there once stretched. */
  passportDim: (p: number) =>
    capture(`pass-${p}-dim`, async () => camera(await passport(PEOPLE[p]!), { seed: p + 31, gain: 0.3, angle: -1, vignette: 0.3, jpeg: 70 })),
  /** Passport page in ordinary light. */
  passportClean: (p: number) =>
    capture(`pass-${p}-clean`, async () => camera(await passport(PEOPLE[p]!), { seed: p + 71, gain: 1.0, angle: 1.5, vignette: 0.1, jpeg: 80 })),
  /** {@link CAPTURES.frontPlain} with its date of birth replaced by a pasted patch. */
  frontForged: async (p: number) => {
    const [x, y] = framePoint(392, 310);
    const [x2, y2] = framePoint(565, 344);
    return pasteOver(await CAPTURES.frontPlain(p), { left: x, top: y, width: x2 - x, height: y2 - y }, '01/01/1960', FONTS[p]!);
  },
};
