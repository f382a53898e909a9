/**
 * The code fields of a licence front, read from its OCR lines: height, sex, eye colour, class,
 * restrictions and endorsements. Each is a short code after a small label that OCR garbles or
 * glues on ("SEXF", "cass E", "RSTR NO NE"), so each is read by its label's spellings, then by
 * its shape on the height line, then by a garbled label's nearness (garbled-labels.ts). Used by
 * printed-fields.ts, which gives them all one confidence.
 */
import { CODE_FIELDS, EYE_CODES, garbledLabelValue } from './garbled-labels.js';

/**
 * A value after a label on the same line, with the label allowed to be glued on to it; `NONE` is
 * kept. A value printed under its label was joined to it by geometry (label-pairing.ts): the
 * next line's first word is not taken ("RSTR" over "DOB: …" read RSTR as "DOB").
 */
function labelled(all: string, label: string, value: string, gluedAfter?: string): string | null {
  // A label may follow its AAMVA field number glued on and misread (`gluedAfter`: "BaEND" for "9a END").
  const start = gluedAfter ? `(?:(?<![A-Za-z])|(?<=${gluedAfter}))` : '(?<![A-Za-z])';
  const m = new RegExp(`${start}(?:${label})[ \\t]*[:.]?[ \\t]*(${value})(?![A-Za-z0-9])`, 'i').exec(all);
  return m ? m[1]!.toUpperCase() : null;
}

/** A restriction or endorsement value, unless its codes run past the `max` characters the AAMVA field holds (NONE is always one). */
function codes(value: string | null, max: number): string | null {
  if (value === null || /^O?NONE$/.test(value)) return value;
  return value.replace(/,/g, '').length <= max ? value : null;
}

/**
 * A code with a label's S glued on before it, as PaddleOCR boxes small print: "SF", "SM" are
 * SEX's S and the sex (on development fronts read as class, restrictions or endorsements, 5 of 5
 * wrong), so no code; for a class, "SC" is CLASS's last S and the class. The hard set prints no
 * code starting with S; a real endorsement "S" (school bus) combined is written after the
 * letters before it ("PS"), so only the sex's letters are dropped from restrictions and endorsements.
 */
function labelGlued(value: string | null, isClass: boolean): string | null {
  if (value === null || !/^S[A-Z]$/.test(value)) return value;
  if (/^S[MF]$/.test(value)) return null;
  return isClass ? value[1]! : value;
}

/** The code fields read, under their `document_processor` names; a field not read is left out. */
export function codeFields(lines: readonly string[]): Record<string, string> {
  const all = lines.join('\n');
  const out: Record<string, string> = {};
  // The foot mark is often lost ("HGT 5-10\"") when the dash is kept; the inch mark too
  // ("HGT5-10"), and then only a height's own values are taken (3-7 ft, 00-11 in, no digit or
  // date separator around it, which a date or a postal code would have).
  // With its foot mark kept, the inch mark may be read as anything ("6'-03-"). With both marks
  // kept, the feet's 5 may be read S ("S-03\"": the classic 5/S confusion of small print), and
  // the inches parted by a space the reader put in ("6'-0 0\""). The foot mark, a small tick, is
  // read as any tick or accent ("5`06\""). Inches run 00-11: "5'-97\"" is a misread, not a height.
  const HEIGHT =
    /(?<!\d)(\d|(?<![A-Za-z])S)\s*(?:['"’‘`´]\s*-?|-)\s*(0 ?\d|1 ?[01])\s*["”]|(?<![\d/.-])([3-7])\s*-\s*(0\d|1[01])(?![\d/.-])|(?<!\d)([3-7])\s*['’‘`´]\s*-?\s*(0\d|1[01])(?!\d)/;
  const height = HEIGHT.exec(all);
  if (height) out['Height'] = `${(height[1] ?? height[3] ?? height[5])!.replace('S', '5')}'-${(height[2] ?? height[4] ?? height[6])!.replace(' ', '')}"`;
  // With their labels unread (small print above the values), sex and eye colour are still known
  // by their shape on the line holding the height: a lone M/F/X, an eye colour code. Class,
  // restrictions and endorsements have no such shape: they need their label.
  const heightLine = (lines.find((l) => HEIGHT.test(l)) ?? '').replace(HEIGHT, ' ');
  const lone = (re: string): string | null => new RegExp(`(?:^|\\s)(${re})(?=\\s|$)`).exec(heightLine)?.[1] ?? null;
  // "15SXF": the E of a numbered SEX lost.
  // "EXM": SEX with its S lost and its value glued on (a numbered front's "15 SEX M").
  // "XF" on the height line: SEX lost to its last letter, glued on to the value.
  // "wsex F", "sux F": SEX one edit off (garbled-labels.ts).
  const sex =
    labelled(all, 'SEX|(?<=\\d)SX|EX', '[MFX]') ??
    /^\s*([MF])\s*$/m.exec(all)?.[1] ??
    lone('[MFX]') ??
    /(?:^|\s)X([MF])(?=\s|$)/.exec(heightLine)?.[1] ??
    garbledLabelValue(lines, CODE_FIELDS.sex);
  if (sex) out['Sex'] = sex.toUpperCase();
  const eyeCodes = EYE_CODES.join('|');
  // PaddleOCR puts a space into a code it reads letter by letter ("EYES B RO").
  const spacedEyes = EYE_CODES.map((c) => `${c[0]} ?${c[1]} ?${c[2]}`).join('|');
  const eyes =
    labelled(all, 'EYES?|EVES|EYS|EES', spacedEyes)?.replace(/ /g, '') ??
    lone(eyeCodes) ??
    new RegExp(`^\\s*(${eyeCodes})\\s*$`, 'm').exec(all)?.[1] ??
    garbledLabelValue(lines, CODE_FIELDS.eyes);
  if (eyes) out['Eyes Color'] = eyes;
  // "cass E": the small capital L of CLASS is lost as often as not.
  // "9.CLAS5 D": the last S read as 5. "SCLASS C": glued to the end of the label before it.
  // Not read after a CLASS garbled further ("sass", "Las"): tesseract reads the ISS label "sass"
  // too, and took the issue date's month as the class (docs/analysis.md, "Given names run together").
  // Garbled further ("CAS B", "S LASS B"), a word is read as CLASS by its nearness to the label (garbled-labels.ts).
  // "CLASS SC": PaddleOCR's box of the value held the label's last S too; "SF", "SM" held
  // SEX's S and the sex beside it, no class (labelGlued).
  const cls = labelGlued(
    labelled(all, 'CLAS5|CLASS|CLAS(?!S)|CASS', '[A-Z0-9]{1,2}') ??
      /CLASS[ \t]*[:.]?[ \t]*([A-Z0-9]{1,2})(?![A-Za-z0-9])/.exec(all)?.[1] ??
      garbledLabelValue(lines, CODE_FIELDS.class),
    true,
  );
  if (cls) out['DL Class'] = cls;
  // "ENDONONE": OCR sometimes doubles a letter between a glued label and NONE.
  // "128STR NONE": the R of a numbered RSTR lost; only taken before NONE (STREET holds STR too).
  // A run longer than the field holds is something else after the label (a discriminator:
  // "END DD76001920385107918858"): AAMVA gives restrictions 12 characters, endorsements 5.
  // "RSTR NO NE": a NONE the reader parted is NONE, not the code NO (nor, for endorsements, "NO" then a stray "NE").
  const parted = (v: string | null): string | null => (v === 'NO NE' ? 'NONE' : v);
  let rstr = labelGlued(
    codes(parted(labelled(all, 'RESTRICTIONS|RESTR|RSTR', 'NONE|NO NE|[A-Z0-9]{1,4}(?:,?[A-Z0-9]{1,4})*')), 12) ??
      labelled(all, '[RI1]?STR', 'NONE') ??
      garbledLabelValue(lines, CODE_FIELDS.restrictions),
    false,
  );
  // "BaEND P": the field number 9a glued on, its 9 read B.
  let end = labelGlued(
    codes(parted(labelled(all, 'ENDORSEMENTS|ENDORSE|END', 'O?NONE|NO NE|[A-Z0-9]{1,4}(?:,?[A-Z0-9]{1,4})*', '[9B]a')), 5)?.replace(/^ONONE$/, 'NONE') ??
      // "ND NONE": END with its faint E lost, only before NONE (ND alone is North Dakota's code).
      labelled(all, 'ND', 'NONE') ??
      garbledLabelValue(lines, CODE_FIELDS.endorsements),
    false,
  );
  // A front prints NONE only as restrictions or endorsements: with one of them read and a NONE
  // left on the page that it did not take, the other is that NONE (its label unread).
  const nones = all.match(/(?<![A-Z])O?NONE(?![A-Z])/g)?.length ?? 0;
  if (nones <= 2 && (rstr === null) !== (end === null) && nones - Number(rstr === 'NONE' || end === 'NONE') === 1) {
    if (rstr === null) rstr = 'NONE';
    else end = 'NONE';
  } else if (nones === 2 && rstr === null && end === null) {
    // Both labels unread and two NONE on the page: both are NONE, whichever is which.
    rstr = 'NONE';
    end = 'NONE';
  }
  if (rstr) out['DL Restriction Code'] = rstr;
  if (end) out['DL Endorsed'] = end;
  return out;
}
