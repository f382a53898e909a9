import { describe, expect, it } from 'vitest';
import { paddleOcrIfAvailable } from '../../../../server/analysis/stages/paddle.js';

describe('PaddleOCR that cannot load', () => {
  it('leaves the reading to tesseract and says so once, without the page', async () => {
    const warnings: Error[] = [];
    const listen = (w: Error): void => void warnings.push(w);
    process.on('warning', listen);
    try {
      const page = { width: 4, height: 4, data: new Uint8Array(16) };
      const missing = (): Promise<never> => Promise.reject(new Error("Cannot find package 'onnxruntime-node'"));
      expect(await paddleOcrIfAvailable(page, missing)).toBeNull();
      expect(await paddleOcrIfAvailable(page, missing)).toBeNull();
      await new Promise((r) => setImmediate(r));
      expect(warnings.map((w) => (w as Error & { code?: string }).code)).toEqual(['VERITY_PADDLE_UNAVAILABLE']);
      expect(warnings[0]!.message).toContain("Cannot find package 'onnxruntime-node'");
    } finally {
      process.off('warning', listen);
    }
  });
});
