/**
 * Doubts of an MRZ read among noisy passes (issue 20): a document number one pass alone read, and
 * exact readings the doubts sent to review for what noisy passes read. The readings are the OCR
 * passes of development passports (test/fixtures/hard), as main read them at the time.
 */
import { describe, expect, it } from 'vitest';
import { readPasses } from '../../../../server/analysis/stages/mrz.js';
import { MrzDoubtKind, mrzDoubts } from '../../../../server/analysis/stages/mrz-doubt.js';

const today = new Date('2026-06-01T00:00:00Z');

describe('mrzDoubts: a document number read by one pass alone', () => {
  // `hard` development passport 15 (document number 007854587): its passes as main read them,
  // when the page vouched for THOMAS and the MRZ was accepted with Q07894387, whose check digit
  // held with three characters wrong.
  const HARD_15_LINE = ['UE<USATWOMAS<<LILY<EMMA<<<<<<<<<<<<<<<<<<<<<', 'F00784545878VSA9305177F3305175<<<<<<<<<<<<<<'];
  const HARD_15 = [
    ['P<USATWORAS<<LILY<EMMA<<<<<<<<<<<<<<<<<<<<<<', 'Q078943878U3A9305177F3305175<<<<<<<<<<<<<<02'],
    ['UP<USATHORAS<<LILY<CMRA<<<<<<<<<<<<<<<<<<<<<', '194878USA9305177F3305175<<<<<<<<<<<<<<<<<<02'],
    HARD_15_LINE,
    ['P<MSAUQ0IAQGL1V<IRGA<<<<<G<<<<<<<<<<', 'QVOSQNHMAOSOH7N330573<<<<<<<<<<0<<<<'],
    ['P<USATMOMAS<<LILY<EMMA<<<<<<<<<<<<<<<<<<<<<<', '<8M424J4878VUSA9305177F33O5179<<<<<<<<<<<<<<'],
    ['THOMAS<<LILY<EMMA<<<<<<<<<<<<<<<<<<<', '78USA9305177F3305175<<<<<<<<<<<<<<02'],
  ];

  it('doubts the characters of a number two or more of which one pass alone read (hard passport 15)', () => {
    const read = readPasses(HARD_15, today, HARD_15_LINE)!;
    expect(read.data?.lines[1]).toBe('Q078943878USA9305177F3305175<<<<<<<<<<<<<<02');
    const once = (read.doubts ?? []).filter((d) => d.kind === MrzDoubtKind.NumberReadOnce);
    expect(once.map((d) => [d.column, d.chosen])).toEqual([
      [0, 'Q'],
      [6, '3'],
    ]);
    expect(read.fields['Document Number']?.confidence).toBeLessThan(95);
  });

  it('leaves a number one character of which a repair took from the one pass that read it', () => {
    const lines = ['P<USATHOMAS<<LILY<EMMA<<<<<<<<<<<<<<<<<<<<<<', '0078545878USA9305177F3305175<<<<<<<<<<<<<<02'];
    const eight = [lines[0]!, lines[1]!.replace('0078545878', '0078548878')];
    expect(mrzDoubts(lines, [eight, eight, lines]).filter((d) => d.kind === MrzDoubtKind.NumberReadOnce)).toEqual([]);
  });
});

describe('readPasses: an exact reading the doubts sent to review for what noisy passes read', () => {
  // Dev-variant passport 4 as drawn (O'CONNOR): its passes as main read them (the first took the
  // second line for its first, the fourth read noise), sent to review exact for the second O of
  // OCONNOR, read O, Q, Q, O. A Q is the tail blur grows on an O (NAME_LOOKALIKES).
  const DEV_VARIANT_4_LINE = ['P<USAOC0ONNQR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<', 'X009016063USA6701055F3101056<<<<<<<<<<<<<<04'];
  const DEV_VARIANT_4 = [
    ['X009016063USA8MQ1QSSF3101358<<<<<N<<NNN<N<J<', '00000000000000000000000000000008000000000000'],
    ['P<USAOCONNOR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<', 'X009016063USA6701055F3101056<<<<<<<<<<<<<<04'],
    DEV_VARIANT_4_LINE,
    ['P<USIOCQNNGR<<AALUA11<EE<<<<<<', '1009015G03U5AQ7015555101056<<K'],
    ['P<USAOCONNQR<<AALIYAHR<LEE<<<<<<<<<<<<<<<<<<', 'X009016063USA6701055F3101056<<<<<<<<<<<<<<04'],
    ['P<USAOCONNOR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<', 'X009016063USA6701055F3101056<<<<<<<<<<<<<<04'],
  ];
  // Development passport 13 blurred (document number E86284581): four passes read the line
  // exactly; the first read its 6 as 4 (a line four edits off) and the fourth read noise (5).
  const BLUR_13_LINE = ['P<USAKOWALSKI<<OLIVIA<LEE<<<<<<<<<<<<<<<<<<<', 'E862845810USA6608110F2908111<<<<<<<<<<<<<<00'];
  const BLUR_13_FIRST = ['P<U45AKOWAL45VI<<OLIVIA<LEE<4<<<<<<<<<<<<<<<', 'E842845810UY5A6608110F2908111<<<<<<<<<<<<<<0'];
  const BLUR_13_NOISE = ['VU5AK0HALSV11011VIA1L<1<1<<1<1<<<<<<<<<<<<<<', 'I352345810U5A60081102105111<<1<<<<<<<<<<<<00'];
  const BLUR_13 = [BLUR_13_FIRST, BLUR_13_LINE, BLUR_13_LINE, BLUR_13_NOISE, BLUR_13_LINE, BLUR_13_LINE];

  it('trusts an O two passes read beside two that read it Q (dev-variant passport 4)', () => {
    const read = readPasses(DEV_VARIANT_4, today, DEV_VARIANT_4_LINE)!;
    expect(read.data?.lines).toEqual(['P<USAOCONNOR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<', 'X009016063USA6701055F3101056<<<<<<<<<<<<<<04']);
    expect(read.doubts ?? []).toEqual([]);
    expect(read.fields['Last Name']?.confidence).toBeGreaterThan(60);
  });

  it('still doubts an O the passes read as another letter than Q', () => {
    // The two Q readings made C: a C is no blurred O, and stands against it.
    const asC = (l: string): string => l.replace('OCONNQR', 'OCONNCR').replace('OC0ONNQR', 'OC0ONNCR');
    const read = readPasses(
      DEV_VARIANT_4.map((p) => p.map(asC)),
      today,
      DEV_VARIANT_4_LINE.map(asC),
    )!;
    expect(read.data?.lines[0]).toBe('P<USAOCONNOR<<AALIYAH<LEE<<<<<<<<<<<<<<<<<<<');
    expect(read.doubts?.some((d) => d.field === 'names' && d.kind === MrzDoubtKind.PassesDisagree && d.column === 10)).toBe(true);
  });

  it('trusts a 6 four sound passes read though a noisy pass read 5 (blurred passport 13)', () => {
    const read = readPasses(BLUR_13, today, BLUR_13_LINE)!;
    expect(read.data?.lines).toEqual(BLUR_13_LINE);
    expect(read.doubts ?? []).toEqual([]);
    expect(read.fields['Document Number']?.confidence).toBeGreaterThan(60);
  });

  it('still doubts the 6 when a pass read G there, however noisy the rest of its line', () => {
    const g = BLUR_13_NOISE.map((l, k) => (k === 1 ? l.replace('I352345810', 'I3G2345810') : l));
    const read = readPasses([BLUR_13_FIRST, BLUR_13_LINE, BLUR_13_LINE, g, BLUR_13_LINE, BLUR_13_LINE], today, BLUR_13_LINE)!;
    expect(read.data?.lines).toEqual(BLUR_13_LINE);
    expect(read.doubts).toContainEqual(expect.objectContaining({ kind: MrzDoubtKind.CheckBlind, line: 1, column: 2, chosen: '6' }));
  });

  it('still doubts a 6 only one sound pass read, the others reading it otherwise or as noise', () => {
    const read = readPasses([BLUR_13_FIRST, BLUR_13_NOISE, BLUR_13_LINE], today)!;
    expect(read.data?.lines).toEqual(BLUR_13_LINE);
    expect(read.doubts).toContainEqual(expect.objectContaining({ kind: MrzDoubtKind.CheckBlind, line: 1, column: 2, chosen: '6' }));
  });
});

describe('mrzDoubts: a wrong document number whose only doubt is a 6 or 1 few passes read soundly', () => {
  // `hard` development passport 23 (document number 771317156): its passes as main read them.
  // Most read a 3 for its fifth character's 1, and the repair took a 9 one pass read for the
  // first 7, the two offsetting each other in the check: 9713371560, a check that holds, and
  // only two passes (three and four edits off) read the line soundly.
  const HARD_23_LINE = ['7P<U5A5M1THJONES<<4B1GAIL<ELLA<<<<<<<<<<<<<<', 'Z77718371560USAT91224193012246<<<<<<<<<<<<<<'];
  const HARD_23 = [
    ['P<U5A5RITHJONE3<<8B1GAIL<EL4A<<<<<<<<<<<<<<<', '7713171560USA791224193012246<<<<<<<<<<<<<<Q4'],
    ['08<<082580<4265045420501954<44<<<<<<<<<<<<<<', '<T713371560USA791224173012246<<<<<<<<<<<<<<0'],
    HARD_23_LINE,
    ['4051501VIJONKV<1UMA1L<ELLAUJU<<<<<<<', 'NHHHGOMHHNLH301275<<<<1<<<<<<000<<<<'],
    ['F54<247454644A791224173012244<<<<<<<<<<<<<<0', 'B8E8PR00454444485<45<8<0<05<20<OX<208024A<<<'],
    ['2JY28311580VSAT91224193012244<<<<<<<<<<<<<<0', 'EE85880554285<02454500<<404<4540<<<<<<<<<<13'],
    ['<U5K3R1THJONES<<4B1GA1L<E1LA<<<<<<<<<<<<<<<<', '7715371560USA791224113012246<<<<<<<<<<<<<<06'],
    ['LBHORITWOIER<<88A6MI4<UA<<<<<<<<<<<<<<<5<<<<', '37136BUSA791224193012244<<<<<<4<<<<<<<<<<<06'],
    ['IP<U5K3RIT4J0NES<<A810AJL<EULA<<<<<<<<<4<<<<', 'E97Z38374560USAT91224173612246<<<<<<<<<<<<<<'],
  ];

  it('keeps the number doubted (hard passport 23: 9713371560 read for 7713171560)', () => {
    const read = readPasses(HARD_23, today, HARD_23_LINE)!;
    expect(read.data?.lines[1]?.slice(0, 10)).toBe('9713371560');
    expect(read.doubts?.some((d) => d.field === 'document_number')).toBe(true);
    expect(read.fields['Document Number']?.confidence).toBe(60);
  });
});

describe('mrzDoubts: a Q read where an O is taken, on a line whose other letters the passes contest', () => {
  // `wide` development passport 11 (WILLIAMS): its passes as main read them. The one pass that
  // read WILLIAMS was outvoted (WILLIARS taken; a pass that read WILLIAMRS aligns its R there),
  // and only the O of OLIVIA, read Q, O, Q, O, sent the wrong name to review.
  const WIDE_11 = [
    ['P<USAWILLIARS<<ANKRA<QWIVIA<<<<<<<<<<<<<<<<<', 'A615930004USASS0S1SSF280S1S2<<<<<<<<<<<<<<24'],
    ['P<USAWILLIARS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<', 'A615930004USA8508155F2808152<<<<<<<<<<<<<<06'],
    ['P<USAWILLIAMRS<<ANNA<QLIVIA<<<<<<<<<<<<<<<<<', 'A615930004USA8508155F2808152<<<<<<<<<<<<<<06'],
    ['P<USAWILLIAMS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<', 'A615930004USA8508155F2808152<<<<<<<<<<<<<<06'],
  ];

  it('keeps the O doubted, and the wrong name with it (wide passport 11: WILLIARS read for WILLIAMS)', () => {
    const read = readPasses(WIDE_11, today)!;
    expect(read.data?.lines[0]).toBe('P<USAWILLIARS<<ANNA<OLIVIA<<<<<<<<<<<<<<<<<<');
    expect(read.doubts?.some((d) => d.field === 'names')).toBe(true);
    expect(read.fields['Last Name']?.confidence).toBe(60);
  });
});
