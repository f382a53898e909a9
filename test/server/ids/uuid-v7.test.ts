import { describe, expect, it } from 'vitest';
import { uuidV7 } from '../../../server/ids/uuid-v7.js';

describe('uuidV7', () => {
  it('is an RFC 9562 version 7 UUID carrying its millisecond', () => {
    const id = uuidV7(1_763_800_000_123);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(1_763_800_000_123);
  });

  it('sorts ids made later after earlier ones, also thousands within one millisecond', () => {
    const ms = Date.now() + 60_000;
    const ids = Array.from({ length: 5_000 }, () => uuidV7(ms));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
