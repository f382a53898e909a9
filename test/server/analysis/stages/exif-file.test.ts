import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { prepareInput } from '../../../../server/analysis/input.js';
import { editorSoftware, exifEntries } from '../../../../server/analysis/stages/exif.js';
import { cleanFileName, fileFacts } from '../../../../server/analysis/stages/file-facts.js';
import { createHash } from 'node:crypto';

describe('exif stage', () => {
  it('reports the tags and names the editor', async () => {
    const bytes = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .withExif({ IFD0: { Software: 'GIMP 2.10.34', Make: 'Pixel', Model: '8 Pro' } })
      .jpeg()
      .toBuffer();
    const input = await prepareInput(bytes);
    const entries = exifEntries(input.exif);
    expect(entries).toContainEqual({ name: 'Make', value: 'Pixel' });
    expect(editorSoftware(input.exif)).toBe('GIMP 2.10.34');
  });

  it('does not call camera firmware an editor, and handles no EXIF', () => {
    expect(editorSoftware({ Software: 'HDR+ 1.0.540104767zd' })).toBeNull();
    expect(editorSoftware(null)).toBeNull();
    expect(exifEntries(null)).toEqual([]);
  });
});

describe('file facts', () => {
  it('hashes the original bytes and cleans the uploaded name', () => {
    const bytes = Buffer.from('abc');
    const f = fileFacts(bytes, 'image/png', 'png', '../../etc/\u202epasswd.png', new Date('2026-01-02T03:04:05Z'));
    expect(f.hash).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(f.original_name).toBe('passwd.png');
    expect(f).toMatchObject({ extension: 'png', type: 'image/png', size: 3, time: 1767323045, name: `${f.hash}.jpg` });
    expect(cleanFileName(undefined)).toBe('upload');
  });
});
