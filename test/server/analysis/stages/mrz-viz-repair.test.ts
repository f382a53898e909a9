/**
 * A TD3 second line a finger hid, rebuilt from the printed page (mrz-viz-repair.ts). The passes
 * and the page OCR below are development passport 29's as main read them (dim, a finger over
 * the nationality and the year of birth): its checks failed and it was refused
 * `MRZ_CHECK_FAILED`. The page's values are taken only where the MRZ's own check digits, as the
 * passes read them, hold over them.
 */
import { describe, expect, it } from 'vitest';
import { readPasses } from '../../../../server/analysis/stages/mrz.js';
import { repairByPage, vizDates } from '../../../../server/analysis/stages/mrz-viz-repair.js';

const today = new Date('2026-11-28T00:00:00Z');
const PASSES = [
  ['P<USAVAN<DYKE<<ELIJAH<PIOTR<<<<<<<<<<<<<<<<<', 'A37861681BUSI11062312411060<<<<<<<<<<<<<<<06'],
  ['P<USAVAN<DYKE<<ELIJAH<PIOTR<<<<<<<<<<<<<<<<<', '<<401062M2411060<<<<<<<<<<<<<<<<<<<<<<<<<<06'],
];
const MRZ_AS_TEXT = ['PSUSAVANSDYKE<<ELIJAHSPIOTR<<<C<C<<C<<<<c', 'A378616818US P11062M2411060<<<<<<<cc<<<c<<g'];
const PAGE = [
  'PASSPORT UNITED STATES OF AMERICA',
  'P USA A37861681',
  'VAN DYKE',
  'ELIJAH PIOTR',
  'UNITED STATES OF AMERICA',
  '06 NOV 1995 M',
  '06 JUN 2020 06 NOV 2024',
  ...MRZ_AS_TEXT,
];
const EXACT = ['P<USAVAN<DYKE<<ELIJAH<PIOTR<<<<<<<<<<<<<<<<<', 'A378616818USA9511062M2411060<<<<<<<<<<<<<<06'];

describe('repairByPage', () => {
  const read = readPasses(PASSES, today)!;

  it('starts from a reading whose checks fail', () => {
    expect(read.data?.valid).toBe(false);
  });

  it('rebuilds the second line from the dates, number, nationality and sex the page prints (passport 29)', () => {
    const out = repairByPage(read, PAGE, today);
    expect(out.data?.valid).toBe(true);
    expect(out.data?.lines).toEqual(EXACT);
    expect(out.doubts ?? []).toEqual([]);
    expect(out.fields['Date of Birth']?.value).toBe('1995-11-06');
    expect(out.fields['Sex']?.value).toBe('M');
  });

  it('takes nothing when a printed date is misread: the check digits the passes read do not hold over it', () => {
    const page = PAGE.map((l) => (l === '06 NOV 1995 M' ? '08 NOV 1995 M' : l));
    expect(repairByPage(read, page, today).data?.valid).toBe(false);
  });

  it('takes nothing when neither the passes nor the page give the sex', () => {
    const page = PAGE.map((l) => (l === '06 NOV 1995 M' ? '06 NOV 1995' : l));
    expect(repairByPage(read, page, today).data?.valid).toBe(false);
  });

  it('leaves a reading that holds its checks as it is', () => {
    const valid = readPasses([EXACT, EXACT], today)!;
    expect(repairByPage(valid, ['06 JAN 1990', '06 JAN 2030'], today)).toBe(valid);
  });

  it('reads printed dates in both forms, not the MRZ read as text', () => {
    expect(vizDates(['06 NOV 1995 M', '06 JUN 2020 06 NOV 2024', '31.01.2001', ...MRZ_AS_TEXT])).toEqual(['951106', '200606', '241106', '010131']);
  });
});
