/** The values a correct reading of a synthetic identity's document gives (`document_processor`). */
import type { Identity } from '../../test/fixtures/identities.js';

export type ReadingKind = 'barcode' | 'mrz' | 'printed';

const heightText = (inches: number): string => `${Math.floor(inches / 12)}'-${String(inches % 12).padStart(2, '0')}"`;

/** Expected field values per reading source. */
export function expectedFields(id: Identity, kind: ReadingKind): Record<string, string> {
  const common = { 'Date of Birth': id.dob, Sex: id.sex };
  if (kind === 'mrz')
    return {
      ...common,
      'Full Name': `${id.first} ${id.middle} ${id.last.replace(/'/g, '').replace(/-/g, ' ')}`,
      'Document Number': id.passportNumber,
      'Date of Expiry': id.expires,
    };
  return {
    ...common,
    'Full Name': `${id.first} ${id.middle} ${id.last}`,
    'Document Number': id.dlNumber,
    'Date of Expiry': id.expires,
    'Date of Issue': id.issued,
    'Address Street': id.street,
    'Address City': id.city,
    'Address State': id.state,
    'Address Postal Code': id.zip,
    'Eyes Color': id.eyes,
    Height: heightText(id.heightIn),
    'DL Class': id.dlClass,
    'DL Restriction Code': id.restrictions,
    'DL Endorsed': id.endorsements,
    'Document Discriminator': id.discriminator,
  };
}
