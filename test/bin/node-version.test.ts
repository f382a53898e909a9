import { describe, expect, it } from 'vitest';
import { unsupportedNode } from '../../bin/node-version.mjs';

describe('the Node version check at start', () => {
  it('accepts the Node versions that load ES-module-only packages with require()', () => {
    for (const version of ['20.19.0', '20.20.2', '22.12.0', '22.20.1', '23.0.0', '24.11.0', '26.1.0']) {
      expect(unsupportedNode(version)).toBeNull();
    }
  });

  it('refuses older Node versions, naming the one running and the one needed', () => {
    for (const version of ['18.20.4', '20.18.3', '21.7.3', '22.11.0']) {
      expect(unsupportedNode(version)).toBe(`Verity needs Node 20.19 or newer (22.12 or newer on Node 22); this is Node ${version}.`);
    }
  });

  it('runs on the Node running this suite', () => {
    expect(unsupportedNode(process.versions.node)).toBeNull();
  });
});
