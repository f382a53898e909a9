import { expect } from '@open-wc/testing';
import { templates as ar } from '../../src/locales/ar.js';
import { templates as de } from '../../src/locales/de.js';
import { templates as es } from '../../src/locales/es.js';
import { templates as fr } from '../../src/locales/fr.js';
import { templates as pt } from '../../src/locales/pt.js';
import { pickLocale, directionOf } from '../../src/localization.js';

describe('locales', () => {
  it('every locale translates the same set of messages', () => {
    const keys = Object.keys(es).sort();
    expect(keys.length).to.be.greaterThan(100);
    for (const [name, table] of Object.entries({ fr, de, pt, ar })) expect(Object.keys(table).sort(), name).to.deep.equal(keys);
  });

  it('picks the first shipped locale of a list, else English; Arabic is right to left', () => {
    expect(pickLocale('', null, 'pt-BR')).to.equal('pt');
    expect(pickLocale('de-AT', 'fr')).to.equal('de');
    expect(pickLocale('ja', 'zz')).to.equal('en');
    expect(directionOf('ar')).to.equal('rtl');
    expect(directionOf('fr')).to.equal('ltr');
  });
});
