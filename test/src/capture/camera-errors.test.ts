import { expect } from '@open-wc/testing';
import { cameraErrorCode, isInAppBrowser } from '../../../src/controllers/camera-controller.js';
import { checkUpload, sniffMediaType } from '../../../src/capture/file-check.js';
import { brokenPdf, pdfWithPages } from '../fixtures/pdf-pages.js';

const env = { secure: true, hasMediaDevices: true, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140' };

describe('camera error mapping', () => {
  it('gives each failure its own code', () => {
    expect(cameraErrorCode(new DOMException('', 'NotAllowedError'), env)).to.equal('camera_permission_denied');
    expect(cameraErrorCode(new DOMException('', 'NotFoundError'), env)).to.equal('camera_not_found');
    expect(cameraErrorCode(new DOMException('', 'OverconstrainedError'), env)).to.equal('camera_not_found');
    expect(cameraErrorCode(new DOMException('', 'NotReadableError'), env)).to.equal('camera_in_use');
    expect(cameraErrorCode(new Error('x'), { ...env, secure: false })).to.equal('camera_insecure_context');
    expect(cameraErrorCode(new Error('x'), { ...env, hasMediaDevices: false })).to.equal('camera_unsupported');
  });

  it('treats a refusal inside an in-app browser as a webview limit', () => {
    const ua = 'Mozilla/5.0 (iPhone) AppleWebKit/605.1.15 Instagram 300.0';
    expect(isInAppBrowser(ua)).to.equal(true);
    expect(cameraErrorCode(new DOMException('', 'NotAllowedError'), { ...env, userAgent: ua })).to.equal('camera_unsupported');
  });
});

describe('upload checks', () => {
  it('recognises JPG, PNG and PDF by magic bytes only', () => {
    expect(sniffMediaType(new Uint8Array([0xff, 0xd8, 0xff, 0xe1]))).to.equal('image/jpeg');
    expect(sniffMediaType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).to.equal('image/png');
    expect(sniffMediaType(new TextEncoder().encode('%PDF-1.7'))).to.equal('application/pdf');
    expect(sniffMediaType(new TextEncoder().encode('GIF89a'))).to.equal(null);
  });

  it('refuses empty and oversized files', async () => {
    expect(await checkUpload(new Blob([]))).to.deep.equal({ ok: false, problem: 'empty' });
    expect(await checkUpload(new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0, 0])]), 4)).to.deep.equal({ ok: false, problem: 'too_large' });
  });

  it('decodes an image before it is sent: a real PNG passes, a truncated one does not', async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    canvas.getContext('2d')!.fillRect(0, 0, 20, 20);
    const png = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), 'image/png'));
    expect(await checkUpload(png)).to.deep.equal({ ok: true, mediaType: 'image/png' });
    expect(await checkUpload(png.slice(0, 40))).to.deep.equal({ ok: false, problem: 'undecodable' });
    // JPEG magic bytes with nothing behind them.
    expect(await checkUpload(new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0])]))).to.deep.equal({ ok: false, problem: 'undecodable' });
  });

  it('opens a PDF on the device: its page count, too many pages, or a broken file', async () => {
    expect(await checkUpload(new Blob([pdfWithPages(2)]))).to.deep.equal({ ok: true, mediaType: 'application/pdf', pages: 2 });
    expect(await checkUpload(new Blob([pdfWithPages(21)]))).to.deep.equal({ ok: false, problem: 'too_many_pages', pages: 21 });
    expect(await checkUpload(new Blob([brokenPdf()]))).to.deep.equal({ ok: false, problem: 'undecodable' });
  });
});
