import type { DocumentTypeOption } from '../../api/contract.js';
import { localizeKnown, messageTable } from '../../internal/message-table.js';

/** The names of the document types this build knows. */
export const DOCUMENT_TYPE_NAMES = messageTable('doc.type', {
  passport: 'Passport',
  id_card: 'Identity card',
  driving_licence: 'Driving licence',
  drivers_license: "Driver's license",
  residence_permit: 'Residence permit',
  utility_bill: 'Utility bill',
  bank_statement: 'Bank statement',
});

/**
 * A document type's name in the flow's language. The server sends an English label; the types it
 * knows are named here so a French or Arabic flow does not show "Passport". A type this build does
 * not know keeps the server's label.
 */
export const documentTypeName = (type: DocumentTypeOption): string => localizeKnown(DOCUMENT_TYPE_NAMES, type.key) ?? type.label;
