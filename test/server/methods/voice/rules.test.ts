import { describe, expect, it } from 'vitest';
import { digitsOf, drawPhrase, voiceDecision, type VoiceMeasures } from '../../../../server/methods/voice/rules.js';

const good: VoiceMeasures = { durationSeconds: 4, speechSeconds: 2.5, speechLevelDbfs: -20, clippedRatio: 0, recognised: '407193' };

describe('voice rules', () => {
  it('reads digits from a transcript, "oh" and "zero" alike, other words dropped', () => {
    expect(digitsOf('four oh seven ONE nine three')).toBe('407193');
    expect(digitsOf('four zero seven, um, one nine three')).toBe('407193');
    expect(digitsOf('')).toBe('');
  });

  it('draws six digits, not always the same', () => {
    const drawn = new Set(Array.from({ length: 20 }, drawPhrase));
    for (const p of drawn) expect(p).toMatch(/^\d{6}$/);
    expect(drawn.size).toBeGreaterThan(15);
  });

  it('decides on the first failed check, in the order the user can fix them', () => {
    expect(voiceDecision(good, '407193')).toEqual({ complete: true });
    expect(voiceDecision({ ...good, recognised: '407198' }, '407193')).toEqual({ complete: false, reason: 'VOICE_DIGITS_MISMATCH' });
    expect(voiceDecision({ ...good, recognised: '' }, '407193')).toEqual({ complete: false, reason: 'VOICE_NO_SPEECH' });
    expect(voiceDecision({ ...good, speechSeconds: 0.1 }, '407193')).toEqual({ complete: false, reason: 'VOICE_NO_SPEECH' });
    expect(voiceDecision({ ...good, speechLevelDbfs: -50 }, '407193')).toEqual({ complete: false, reason: 'VOICE_TOO_QUIET' });
    expect(voiceDecision({ ...good, durationSeconds: 1 }, '407193')).toEqual({ complete: false, reason: 'VOICE_TOO_SHORT' });
    expect(voiceDecision({ ...good, speechSeconds: 0.8 }, '407193')).toEqual({ complete: false, reason: 'VOICE_TOO_SHORT' });
  });
});
