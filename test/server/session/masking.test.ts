import { describe, expect, it } from 'vitest';
import { maskEmail, maskPhone } from '../../../server/session/masking.js';

describe('masking', () => {
  it('shows only enough of the e-mail and phone to recognise them', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@example.com');
    expect(maskPhone('+447911123456')).toBe('+44 ••• ••• 456');
  });
});
