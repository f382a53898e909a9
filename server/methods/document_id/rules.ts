import type { DocumentTypeOption } from '../../../src/api/contract.js';

/** Labels and sides of the document types our workflows name. */
const DOCUMENT_TYPES: Record<string, { label: string; sides: 1 | 2 }> = {
  passport: { label: 'Passport', sides: 1 },
  id_card: { label: 'Identity card', sides: 2 },
  driving_licence: { label: 'Driving licence', sides: 2 },
  drivers_license: { label: "Driver's license", sides: 2 },
  residence_permit: { label: 'Residence permit', sides: 2 },
  utility_bill: { label: 'Utility bill', sides: 1 },
  bank_statement: { label: 'Bank statement', sides: 1 },
};

export function documentTypeOption(key: string): DocumentTypeOption {
  const known = DOCUMENT_TYPES[key];
  return { key, label: known?.label ?? key.replace(/_/g, ' '), sides: known?.sides ?? 1 };
}
