/** `doc_type` / `doc_type_id`: from the MRZ, then the barcode, then printed keywords. */

export const DocType = {
  Passport: 'passport',
  IdCard: 'id_card',
  DrivingLicence: 'driving_licence',
  Other: 'other',
} as const;
export type DocType = (typeof DocType)[keyof typeof DocType];

/** Stable numeric ids for `doc_type_id`. */
export const DOC_TYPE_IDS: Record<DocType, number> = { passport: 1, id_card: 2, driving_licence: 3, other: 4 };

export interface DocTypeEvidence {
  /** MRZ format and document code, when an MRZ was read. */
  readonly mrz?: { format: string; documentCode: string | null | undefined };
  /** AAMVA subfile type (`DL` or `ID`), when a barcode was read. */
  readonly aamvaSubfile?: string;
  /** OCR text. */
  readonly text?: string;
}

/** Decides the document type; `other` when nothing identifies it. */
export function classifyDocument(e: DocTypeEvidence): { doc_type: DocType; doc_type_id: number } {
  const pick = (t: DocType): { doc_type: DocType; doc_type_id: number } => ({ doc_type: t, doc_type_id: DOC_TYPE_IDS[t] });
  if (e.mrz) {
    const code = (e.mrz.documentCode ?? '').toUpperCase();
    if (e.mrz.format === 'TD3' || code.startsWith('P')) return pick(DocType.Passport);
    if (e.mrz.format.includes('DRIVING')) return pick(DocType.DrivingLicence);
    return pick(DocType.IdCard);
  }
  if (e.aamvaSubfile === 'DL') return pick(DocType.DrivingLicence);
  if (e.aamvaSubfile === 'ID') return pick(DocType.IdCard);
  const t = (e.text ?? '').toUpperCase();
  if (/\bPASSPORT\b|\bPASSEPORT\b|\bPASAPORTE\b/.test(t)) return pick(DocType.Passport);
  // PaddleOCR gives a line without its spaces ("USADRIVERLICENSE"): the words may touch.
  if (/DRIVER'?S?\s*LICEN[CS]E|DRIVING\s*LICEN[CS]E|\bPERMIS DE CONDUIRE\b|\bDL\b.*\bCLASS\b/s.test(t)) return pick(DocType.DrivingLicence);
  if (/IDENTIFICATION\s*CARD|IDENTITY\s*CARD|\bID\s+CARD\b|CARTE D'IDENTIT/.test(t)) return pick(DocType.IdCard);
  return pick(DocType.Other);
}

/** A run of 28 or more MRZ characters without a space: an MRZ line (TD1 30, TD3 44), whatever OCR made of its fillers. */
const MRZ_RUN = /[A-Z0-9<]{28,}/;

/** Whether the OCR's text holds something MRZ-like: fillers (`<<`) or a run of 28+ MRZ characters. */
export function showsMrzText(text: string): boolean {
  return /<</.test(text) || MRZ_RUN.test(text.toUpperCase());
}
