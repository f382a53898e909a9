import { describe, expect, it } from 'vitest';
import { farAt, formatRate, padRates, tarAt, tarAtFar, wilson } from '../../scripts/eval/metrics.js';

describe('eval metrics', () => {
  it('gives the Wilson 95 % interval of textbook cases', () => {
    expect(wilson(5, 10).low).toBeCloseTo(0.2366, 4);
    expect(wilson(5, 10).high).toBeCloseTo(0.7634, 4);
    // At 0 and n the interval is one-sided but not empty (the normal approximation gives [0, 0]).
    expect(wilson(0, 10)).toMatchObject({ p: 0, low: 0 });
    expect(wilson(0, 10).high).toBeCloseTo(0.2775, 4);
    expect(wilson(10, 10).low).toBeCloseTo(0.7225, 4);
    expect(wilson(95, 100).low).toBeCloseTo(0.8882, 4);
    expect(wilson(95, 100).high).toBeCloseTo(0.9785, 4);
    expect(wilson(1, 1000).high).toBeCloseTo(0.005643, 5);
    expect(formatRate(wilson(5, 10))).toBe('50.0 % [23.7–76.3] (5/10)');
    expect(formatRate(wilson(0, 0))).toBe('n/a (0 cases)');
  });

  it('counts FAR and TAR at a threshold as score ≥ threshold', () => {
    const genuine = [0.9, 0.8, 0.7, 0.6, 0.5];
    const impostor = [0.1, 0.2, 0.6, 0.65, 0.3];
    expect(tarAt(genuine, 0.6)).toMatchObject({ k: 4, n: 5 });
    expect(farAt(impostor, 0.6)).toMatchObject({ k: 2, n: 5 });
    expect(farAt(impostor, 0.66)).toMatchObject({ k: 0, n: 5 });
  });

  it('sets the threshold for a target FAR from the impostor scores and reads the TAR there', () => {
    // 2,000 impostors spread over [0, 0.5), plus three high ones; FAR 0.1 % allows 2 of 2,003.
    const impostor = Array.from({ length: 2000 }, (_, i) => i / 4000).concat([0.9, 0.8, 0.7]);
    const genuine = [0.95, 0.85, 0.75, 0.72, 0.6, 0.4];
    const op = tarAtFar(genuine, impostor, 0.001);
    expect(op.far).toMatchObject({ k: 2, n: 2003 });
    // The threshold sits just above the third-highest impostor (0.7): four genuine scores clear it.
    expect(op.tar).toMatchObject({ k: 4, n: 6 });
    expect(op.threshold).toBeGreaterThan(0.7);
    expect(op.threshold).toBeLessThan(0.72);
    expect(op.measurable).toBe(true);
    // 0.01 % of 2,003 pairs is less than one pair: the threshold goes above every impostor.
    const strict = tarAtFar(genuine, impostor, 0.0001);
    expect(strict.far.k).toBe(0);
    expect(strict.tar.k).toBe(1);
    expect(strict.measurable).toBe(false);
  });

  it('computes APCER per attack species, the worst one, and BPCER', () => {
    const r = padRates([
      { attack: true, species: 'print', accepted: true },
      { attack: true, species: 'print', accepted: false },
      { attack: true, species: 'print', accepted: false },
      { attack: true, species: 'print', accepted: false },
      { attack: true, species: 'screen', accepted: true },
      { attack: true, species: 'screen', accepted: true },
      { attack: false, species: 'bona-fide', accepted: true },
      { attack: false, species: 'bona-fide', accepted: false },
      { attack: false, species: 'bona-fide', accepted: true },
      { attack: false, species: 'bona-fide', accepted: true },
    ]);
    expect(r.apcer['print']).toMatchObject({ k: 1, n: 4, p: 0.25 });
    expect(r.apcer['screen']).toMatchObject({ k: 2, n: 2, p: 1 });
    expect(r.apcerWorst).toMatchObject({ k: 2, n: 2 });
    expect(r.bpcer).toMatchObject({ k: 1, n: 4, p: 0.25 });
  });
});
