import { describe, expect, it } from 'vitest';
import { countryOfPosition, decideLocation } from '../../../../server/methods/geolocation/rules.js';
import { countryOfIp } from '../../../../server/session/ip-country.js';

describe('offline geolocation', () => {
  it('reverse-geocodes positions to countries from the bundled boundaries', () => {
    expect(countryOfPosition(48.8566, 2.3522)).toBe('FR');
    expect(countryOfPosition(-33.8688, 151.2093)).toBe('AU');
    expect(countryOfPosition(-45, -130)).toBeNull();
  });

  it('finds the country of an IPv4 address (also IPv4-mapped IPv6), none for loopback or IPv6', () => {
    expect(countryOfIp('81.2.69.160')).toBe('GB');
    expect(countryOfIp('::ffff:81.2.69.160')).toBe('GB');
    expect(countryOfIp('127.0.0.1')).toBeNull();
    expect(countryOfIp('2001:db8::1')).toBeNull();
    expect(countryOfIp(null)).toBeNull();
  });

  it('decides against countries and regions, allowing anywhere when unrestricted', () => {
    expect(decideLocation(52.52, 13.405, null)).toEqual({ ok: true, country: 'DE' });
    expect(decideLocation(52.52, 13.405, ['EU'])).toEqual({ ok: true, country: 'DE' });
    expect(decideLocation(51.5074, -0.1278, ['EU']).ok).toBe(false);
    expect(decideLocation(40.7128, -74.006, ['US', 'CA']).ok).toBe(true);
    expect(decideLocation(0, -30, ['FR']).ok).toBe(false);
  });
});
