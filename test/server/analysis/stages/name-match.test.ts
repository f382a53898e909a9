import { describe, expect, it } from 'vitest';
import { matchName } from '../../../../server/analysis/stages/name-match.js';

describe('matchName', () => {
  it('ignores case, accents and order, and tolerates middle names', () => {
    expect(matchName({ firstName: 'José', lastName: 'García' }, 'JOSE LUIS GARCIA')).toEqual({ full_name: true, last_name: true });
    expect(matchName({ firstName: 'anna maria', lastName: 'eriksson' }, 'ERIKSSON ANNA')).toEqual({ full_name: true, last_name: true });
    expect(matchName({ firstName: 'Mary', lastName: "O'Brien" }, 'MARY ELIZABETH OBRIEN')).toEqual({ full_name: true, last_name: true });
  });

  it('matches the last name alone when the first name differs', () => {
    expect(matchName({ firstName: 'Peter', lastName: 'Garcia' }, 'JOSE LUIS GARCIA')).toEqual({ full_name: false, last_name: true });
  });

  it('rejects a different person', () => {
    expect(matchName({ firstName: 'Grace', lastName: 'Park' }, 'ANNA MARIA ERIKSSON')).toEqual({ full_name: false, last_name: false });
  });

  it('tolerates one OCR slip in a long name but not in a short one', () => {
    expect(matchName({ firstName: 'Isabella', lastName: 'Rossi' }, 'ISABEILA ROSSI')?.full_name).toBe(true);
    expect(matchName({ firstName: 'Lee', lastName: 'Park' }, 'LEE PARC')?.last_name).toBe(false);
  });

  it('searches the document text when no name field was read, and says nothing without any text', () => {
    expect(matchName({ firstName: 'Anna', lastName: 'Eriksson' }, null, 'CALIFORNIA\nw ERIKSSON\nn ANNA MARIA')?.full_name).toBe(true);
    expect(matchName({ firstName: 'Anna', lastName: 'Eriksson' }, null, '')).toBeNull();
  });
});
