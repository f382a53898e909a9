import { expect } from '@open-wc/testing';
import { templates as ar } from '../../src/locales/ar.js';
import { templates as de } from '../../src/locales/de.js';
import { templates as es } from '../../src/locales/es.js';
import { templates as fr } from '../../src/locales/fr.js';
import { templates as pt } from '../../src/locales/pt.js';
import { pickLocale, directionOf, useLocale } from '../../src/localization.js';
import { localizeKnown, messageId, type MessageTable } from '../../src/internal/message-table.js';
import { AGREED, CAPTURED } from '../../src/steps/consent/consent-texts.js';
import { CAPTURE_HINTS, issueHint, UPLOAD_PROBLEMS } from '../../src/steps/document_id/document-messages.js';
import { DOCUMENT_TYPE_NAMES } from '../../src/steps/document_id/document-type-names.js';
import { SIGN_IN_PROBLEMS } from '../../src/steps/oidc/sign-in-texts.js';
import { STEP_TITLES } from '../../src/steps/registry.js';
import { CARD_REJECTIONS, cardRejectionText } from '../../src/steps/secure_card/card-messages.js';
import { FACE_REFUSALS } from '../../src/steps/selfie/face-reasons.js';
import { HELP_CAUSES, HELP_TIPS } from '../../src/steps/selfie/selfie-help.js';
import { CHALLENGE_TEXTS, FACE_HINT_TEXTS } from '../../src/steps/selfie/selfie-texts.js';
import { MICROPHONE_ERRORS } from '../../src/steps/voice/verify-step-voice.component.js';
import { VOICE_REASONS } from '../../src/steps/voice/voice-reasons.js';

/** Every message table of the steps: their ids are made at run time, so only this test sees them all. */
const TABLES: Record<string, MessageTable<string>> = {
  AGREED,
  CAPTURED,
  CAPTURE_HINTS,
  UPLOAD_PROBLEMS,
  DOCUMENT_TYPE_NAMES,
  SIGN_IN_PROBLEMS,
  CARD_REJECTIONS,
  CHALLENGE_TEXTS,
  FACE_HINT_TEXTS,
  FACE_REFUSALS,
  HELP_CAUSES,
  HELP_TIPS,
  MICROPHONE_ERRORS,
  STEP_TITLES,
  VOICE_REASONS,
};

describe('locales', () => {
  it('every locale translates the same set of messages', () => {
    const keys = Object.keys(es).sort();
    expect(keys.length).to.be.greaterThan(100);
    for (const [name, table] of Object.entries({ fr, de, pt, ar })) expect(Object.keys(table).sort(), name).to.deep.equal(keys);
  });

  it("every locale translates every code of the steps' message tables", () => {
    for (const [tableName, table] of Object.entries(TABLES))
      for (const key of Object.keys(table.english))
        for (const [name, locale] of Object.entries({ es, fr, de, pt, ar })) expect(locale, `${name}, ${tableName}`).to.have.property(messageId(table, key));
  });

  it("a table's code reads in the active locale; a code the table lacks (or an Object key) is null", async () => {
    try {
      await useLocale('fr');
      expect(issueHint('TOO_DARK')).to.equal(fr['doc.hint.TOO_DARK']);
      expect(cardRejectionText('CARD_EXPIRED')).to.equal(fr['card.rejected.CARD_EXPIRED']);
      expect(cardRejectionText('CARD_STOLEN')).to.equal(null);
      expect(localizeKnown(CARD_REJECTIONS, 'toString')).to.equal(null);
      expect(localizeKnown(CARD_REJECTIONS, null)).to.equal(null);
    } finally {
      await useLocale('en');
    }
    expect(issueHint('TOO_DARK')).to.equal('Too dark. Move to a brighter place.');
  });

  it('picks the first shipped locale of a list, else English; Arabic is right to left', () => {
    expect(pickLocale('', null, 'pt-BR')).to.equal('pt');
    expect(pickLocale('de-AT', 'fr')).to.equal('de');
    expect(pickLocale('ja', 'zz')).to.equal('en');
    expect(directionOf('ar')).to.equal('rtl');
    expect(directionOf('fr')).to.equal('ltr');
  });
});
