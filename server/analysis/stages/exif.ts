/**
 * `exif_data` (the EXIF/XMP tags read from the original bytes, flattened to name/value pairs)
 * and the editor check for `photoshopped`: true when the software that wrote the file is an
 * image editor.
 */
import type { ExifTags } from '../input.js';

/** One `exif_data` entry. */
export interface ExifEntry {
  readonly name: string;
  readonly value: string;
}

/** Software names of image editors (matched case-insensitively within the tag). */
const EDITORS = [
  'photoshop',
  'lightroom',
  'gimp',
  'affinity photo',
  'pixelmator',
  'paint.net',
  'paintshop',
  'snapseed',
  'picsart',
  'canva',
  'fotor',
  'krita',
  'photopea',
  'facetune',
  'luminar',
  'capture one',
  'corel',
  'photoscape',
  'pixlr',
  'befunky',
  'inpixio',
  'photodirector',
  'airbrush',
];

/** Tags that name the writing software. */
const SOFTWARE_TAGS = ['Software', 'CreatorTool', 'ProcessingSoftware', 'HistorySoftwareAgent', 'creatortool'];

/** Tags too large or too binary to report. */
const SKIP = new Set(['MakerNote', 'UserComment', 'thumbnail', 'PrintIM', 'ComponentsConfiguration', 'ExifVersion', 'FlashpixVersion']);

function stringify(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (typeof v === 'string') return v.replace(/\0+$/, '').trim();
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.length <= 16 && v.every((x) => typeof x === 'number' || typeof x === 'string')) return v.join(', ');
  return null;
}

/** Flattens tags to `exif_data` entries (scalars only, binary blobs left out). */
export function exifEntries(tags: ExifTags | null): ExifEntry[] {
  if (!tags) return [];
  const out: ExifEntry[] = [];
  for (const [name, value] of Object.entries(tags)) {
    if (SKIP.has(name)) continue;
    const s = stringify(value);
    if (s !== null && s.length > 0 && s.length <= 256) out.push({ name, value: s });
  }
  return out;
}

/** The editor named by the software tags, or null. */
export function editorSoftware(tags: ExifTags | null): string | null {
  if (!tags) return null;
  for (const key of SOFTWARE_TAGS) {
    const v = stringify(tags[key]);
    if (!v) continue;
    const lower = v.toLowerCase();
    if (EDITORS.some((e) => lower.includes(e))) return v;
  }
  return null;
}
