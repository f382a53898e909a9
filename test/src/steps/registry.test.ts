import { expect, fixture } from '@open-wc/testing';
import { render } from 'lit';
import { METHOD_KEYS } from '../../../src/api/routes.js';
import { EMBED_IFRAME_ALLOW, STEP_PERMISSIONS, iframeAllow } from '../../../src/steps/permissions.js';
import { stepFor, stepTitle, WEB_STEPS } from '../../../src/steps/registry.js';
import { METHODS } from '../fixtures/double.js';

describe('the step registry', () => {
  it('has one step per method key, whose lazy import defines the element it renders', async () => {
    expect(WEB_STEPS.map((s) => s.key).sort()).to.deep.equal([...METHOD_KEYS].sort());
    for (const key of METHOD_KEYS) {
      const step = stepFor(key)!;
      await step.load();
      expect(customElements.get(step.tag), step.tag).to.not.equal(undefined);
      const host = await fixture<HTMLDivElement>('<div></div>');
      render(step.render(METHODS[key]()), host);
      expect(host.firstElementChild?.localName, key).to.equal(step.tag);
      expect(stepTitle(METHODS[key]())).to.equal(step.title());
    }
  });

  it('has no step for a method this page cannot perform, whose title is its own name', () => {
    expect(stepFor('other')).to.equal(undefined);
    expect(stepTitle({ ...METHODS.email(), key: 'other', name: 'Video call', needs: {} })).to.equal('Video call');
  });

  it('lets the embed frame use the camera, the location, the microphone and passkeys, the features the steps need', () => {
    expect(iframeAllow()).to.equal('camera; geolocation; microphone; publickey-credentials-create; publickey-credentials-get');
    // What the script-tag embed ships, written out for its size budget, is the same list.
    expect(EMBED_IFRAME_ALLOW).to.equal(iframeAllow());
  });

  it('shows the consent screen before every step that uses the camera or the microphone, as the server guards them (issue 24)', () => {
    expect(
      WEB_STEPS.filter((s) => s.biometric)
        .map((s) => s.key)
        .sort(),
    ).to.deep.equal(['document_id', 'live_video', 'liveness', 'secure_card', 'selfie', 'video', 'voice']);
    for (const step of WEB_STEPS)
      if (STEP_PERMISSIONS[step.key].includes('camera') || STEP_PERMISSIONS[step.key].includes('microphone')) expect(step.biometric, step.key).to.equal(true);
  });
});
