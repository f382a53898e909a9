import { expect } from '@open-wc/testing';
import { CardReader } from '../../../src/capture/card-reader.js';
import { hasCardNumber } from '../../../src/capture/card-text.js';
import { cardPicture, TEST_OCR_ASSETS } from '../fixtures/card-picture.js';
import { TEST_CARDS } from '../fixtures/card-scene.mjs';

describe('card reader (tesseract.js in the browser)', function () {
  this.timeout(120_000);
  let reader: CardReader;
  before(async () => {
    reader = await CardReader.load(TEST_OCR_ASSETS);
  });
  after(async () => {
    await reader?.close();
  });

  it('reads a Luhn-valid card and blacks its number out: a second reading of the masked picture finds no number', async () => {
    const scan = await reader.read(await cardPicture());
    expect(scan.reading).to.deep.equal({
      number_read: true,
      last4: '1111',
      pan_length: 16,
      brand: 'visa',
      luhn_valid: true,
      expiry_month: 8,
      expiry_year: 2029,
      cardholder_name: 'JANE DOE',
    });
    expect(JSON.stringify(scan.reading)).not.to.contain(TEST_CARDS.visa);
    expect(scan.masked?.type).to.equal('image/jpeg');
    const again = await reader.read(scan.masked!);
    expect(again.text.number).to.equal(null);
    expect(again.reading.cardholder_name).to.equal('JANE DOE');
  });

  it('reads a card held in a camera frame (a Mastercard, another name, an expiry passed)', async () => {
    const scan = await reader.read(
      await cardPicture({ number: TEST_CARDS.mastercard, name: 'JOHN SMITH', expiry: '05/24', width: 1280, height: 960, card: 0.75 }),
    );
    expect(scan.reading).to.include({
      last4: '4444',
      brand: 'mastercard',
      luhn_valid: true,
      expiry_month: 5,
      expiry_year: 2024,
      cardholder_name: 'JOHN SMITH',
    });
  });

  it('reads no number off a blurred card, and then makes no picture to send', async () => {
    const scan = await reader.read(await cardPicture({ blur: 9 }));
    expect(scan.reading.number_read).to.equal(false);
    expect(scan.masked).to.equal(null);
  });

  it('finds a number left anywhere in a text', () => {
    expect(hasCardNumber('4111 1111 1111 1111')).to.equal(true);
    expect(hasCardNumber('VALID THRU 08/29 ****1111')).to.equal(false);
  });
});
