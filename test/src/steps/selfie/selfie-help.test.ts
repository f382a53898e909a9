import { expect } from '@open-wc/testing';
import { render } from 'lit';
import { faceRefusalText } from '../../../../src/steps/selfie/face-reasons.js';
import { selfieHelp } from '../../../../src/steps/selfie/selfie-help.js';
import { cameraDevice } from '../../../../src/steps/camera-device.js';

const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** The help as the user reads it: its sentences, then its tips. */
function shown(...args: Parameters<typeof selfieHelp>): { title: string; tips: string[] } {
  const box = document.createElement('div');
  render(selfieHelp(...args), box);
  return {
    title: box.querySelector('p')!.textContent!.replace(/\s+/g, ' ').trim(),
    tips: [...box.querySelectorAll('li')].map((li) => li.textContent!.trim()),
  };
}

describe("the face step's help after three failed attempts", () => {
  it('says why the last attempt failed, and gives the tips for that cause', () => {
    const notSeen = shown('face_not_seen', 'phone', true);
    expect(notSeen.title).to.equal(
      'This did not work three times. The last time, the pictures were refused: your face was not clearly in view in all of them.',
    );
    expect(notSeen.tips).to.include('Only you should be in view; keep hair, hands and masks away from your face.');
    expect(notSeen.tips.join(' ')).to.not.contain('Turn your head');
    const mismatch = shown('face_mismatch', 'computer', true);
    expect(mismatch.title).to.contain('the face did not match the photo on your document');
    expect(mismatch.tips).to.include('Take off glasses, a hat or a mask, and look as in the photo on your document.');
    // Three time-outs before a reload: the view does not say which; the title alone, and the moves' tip.
    const unknown = shown('unknown', 'phone', true);
    expect(unknown.title).to.equal('This did not work three times.');
    expect(unknown.tips).to.include('Turn your head slowly and keep your face inside the oval.');
  });

  it("speaks of a phone held in the hand or of a computer's camera", () => {
    expect(shown('moves', 'phone', true).tips[0]).to.equal('Hold the phone at eye level, about an arm’s length away.');
    expect(shown('moves', 'computer', true).tips[0]).to.equal('Sit facing your computer’s camera, your face level with it, about an arm’s length away.');
    expect(shown('not_live', 'computer', true).tips).to.include('Turn the screen brightness up and sit close enough for its colours to light your face.');
    // A plain selfie has no moves and no colours.
    const selfie = shown('look', 'computer', false);
    expect(selfie.title).to.contain('did not see you look straight at it');
    expect(selfie.tips.join(' ')).to.not.match(/Turn your head|brightness/);
  });

  it('tells a phone or a tablet from a computer', () => {
    const desktop = { userAgent: DESKTOP_UA, maxTouchPoints: 0, touchOnly: false };
    expect(cameraDevice(desktop)).to.equal('computer');
    expect(cameraDevice({ ...desktop, mobile: true })).to.equal('phone');
    expect(cameraDevice({ ...desktop, userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36' })).to.equal(
      'phone',
    );
    // iPadOS reports a Mac; its touch screen tells it apart from one.
    const mac = {
      userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.5 Safari/605.1.15',
      maxTouchPoints: 0,
      touchOnly: false,
    };
    expect(cameraDevice(mac)).to.equal('computer');
    expect(cameraDevice({ ...mac, maxTouchPoints: 5 })).to.equal('phone');
    expect(cameraDevice({ ...desktop, touchOnly: true })).to.equal('phone');
    // This test's own desktop Chromium.
    expect(cameraDevice()).to.equal('computer');
  });

  it("words the flow's refusal notice instead of the server's codes", () => {
    expect(faceRefusalText('NO_FACE, FLASH_NOT_FOLLOWED, BLINK_NOT_SEEN')).to.equal('Your face was not clearly in view in all the pictures.');
    expect(faceRefusalText('PLANAR_FACE, FLASH_NOT_FOLLOWED')).to.equal('The check could not confirm a live person in front of the camera.');
    expect(faceRefusalText('NO_REFERENCE_FACE')).to.equal(null);
    expect(faceRefusalText(null)).to.equal(null);
  });
});
