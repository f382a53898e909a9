import { msg } from '@lit/localize';
import type { DocumentTypeOption } from '../../api/contract.js';

/**
 * A document type's name in the flow's language. The server sends an English label; the types it
 * knows are named here so a French or Arabic flow does not show "Passport". A type this build does
 * not know keeps the server's label.
 */
export function documentTypeName(type: DocumentTypeOption): string {
  switch (type.key) {
    case 'passport':
      return msg('Passport', { id: 'doc.type.passport' });
    case 'id_card':
      return msg('Identity card', { id: 'doc.type.id_card' });
    case 'driving_licence':
      return msg('Driving licence', { id: 'doc.type.driving_licence' });
    case 'drivers_license':
      return msg("Driver's license", { id: 'doc.type.drivers_license' });
    case 'residence_permit':
      return msg('Residence permit', { id: 'doc.type.residence_permit' });
    case 'utility_bill':
      return msg('Utility bill', { id: 'doc.type.utility_bill' });
    case 'bank_statement':
      return msg('Bank statement', { id: 'doc.type.bank_statement' });
    default:
      return type.label;
  }
}
