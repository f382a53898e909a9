/**
 * `deaNumber` (spec 4.3: "registration number validated against a government data source"): the
 * checks a DEA registration number can pass without the registry, and the registry's answer as a
 * check. A DEA number is a registrant-type letter, the registrant's last-name initial (or 9 for a
 * business), six digits and a check digit: the last digit of (d1+d3+d5) + 2×(d2+d4+d6).
 *
 * The number is stored as the customer sent it and never refused at create (spec 4.3 takes any
 * string, so an integration already sending one the check would fail keeps working): what is wrong
 * with it is told in the checks, to the customer (`GET /api/users/{id}/dea-number`) and the reviewer.
 */
import type { VerificationCheck } from './verification-checks.js';

/**
 * First letters of DEA registrant types (DEA Diversion Control: A, B, F, G practitioners,
 * hospitals, pharmacies, teaching institutions; M mid-level practitioners; P–U manufacturers,
 * distributors, researchers, labs, importers, exporters, reverse distributors, narcotic treatment
 * programs; X the buprenorphine (DATA-waiver) prescribing programme).
 */
export const DEA_REGISTRANT_TYPES = new Set(['A', 'B', 'F', 'G', 'M', 'P', 'R', 'S', 'T', 'U', 'X']);

/** What the registry said of a number, as stored by the lookup (server/services/dea-registry.ts). */
export type DeaRegistryResult =
  | {
      outcome: 'answered';
      provider: string;
      checked_at: string;
      status: 'active' | 'inactive' | 'not_found';
      registrant_name: string | null;
      last_name_matches: boolean | null;
    }
  | { outcome: 'unavailable'; provider: string; checked_at: string };

/** The number as compared: upper case, without spaces or hyphens. */
export function normaliseDeaNumber(raw: string): string {
  return raw.toUpperCase().replace(/[\s-]/g, '');
}

/** Whether the number has the shape of a DEA number: type letter, initial or 9, seven digits. */
export function deaFormatValid(number: string): boolean {
  return /^[A-Z][A-Z9]\d{7}$/.test(number) && DEA_REGISTRANT_TYPES.has(number[0]!);
}

/** Whether the seventh digit is the check digit of the first six (the number must have the DEA shape). */
export function deaCheckDigitValid(number: string): boolean {
  const d = number.slice(2).split('').map(Number);
  if (d.length !== 7 || d.some((n) => Number.isNaN(n))) return false;
  const sum = d[0]! + d[2]! + d[4]! + 2 * (d[1]! + d[3]! + d[5]!);
  return sum % 10 === d[6];
}

/** The first letter of a last name, without accents (É → E), or null when it has none. */
function initialOf(lastName: string | null): string | null {
  const letter = (lastName ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .match(/[A-Z]/);
  return letter ? letter[0] : null;
}

const row = (name: string, outcome: VerificationCheck['outcome'], reason: string | null = null): VerificationCheck => ({ name, outcome, reason, value: null });

/**
 * The checks of a user's DEA number against their last name and, when one was asked, a registry;
 * empty when the user has none. `registry`: its answer, `pending` while the lookup has not run,
 * or undefined when none is configured (said so in the row).
 */
export function deaChecks(raw: string | null, lastName: string | null, registry: DeaRegistryResult | 'pending' | undefined): VerificationCheck[] {
  if (raw === null || raw.trim() === '') return [];
  const number = normaliseDeaNumber(raw);
  if (!deaFormatValid(number)) {
    return [
      row(
        'dea_format',
        'failed',
        /^[A-Z][A-Z9]\d{7}$/.test(number)
          ? `${number[0]} is not a DEA registrant type (${[...DEA_REGISTRANT_TYPES].join(', ')}).`
          : 'Not two letters and seven digits.',
      ),
      row('dea_check_digit', 'not_run', 'The number does not have the DEA shape.'),
      row('dea_registrant_initial', 'not_run', 'The number does not have the DEA shape.'),
      row('dea_registry', 'not_run', 'A number without the DEA shape is not looked up.'),
    ];
  }
  const out = [row('dea_format', 'passed')];
  const digitOk = deaCheckDigitValid(number);
  out.push(digitOk ? row('dea_check_digit', 'passed') : row('dea_check_digit', 'failed', 'The check digit does not hold: the number is mistyped or made up.'));
  const second = number[1]!;
  const initial = initialOf(lastName);
  if (second === '9') out.push(row('dea_registrant_initial', 'not_run', 'A business registration (9): no last-name initial to compare.'));
  else if (!initial) out.push(row('dea_registrant_initial', 'not_run', "The user's record has no last name."));
  else if (initial === second) out.push(row('dea_registrant_initial', 'passed'));
  // Flagged, not failed: the initial is of the name at registration, and names change.
  else out.push(row('dea_registrant_initial', 'flagged', `The number's initial ${second} is not that of the last name on record (${initial}).`));
  out.push(registryRow(registry, digitOk));
  return out;
}

function registryRow(registry: DeaRegistryResult | 'pending' | undefined, digitOk: boolean): VerificationCheck {
  if (!digitOk) return row('dea_registry', 'not_run', 'A number whose check digit fails is not looked up.');
  if (!registry) return row('dea_registry', 'not_run', 'Not checked against a registry: none is configured (VERITY_DEA_REGISTRY_URL).');
  if (registry === 'pending') return row('dea_registry', 'not_run', 'The registry lookup has not finished.');
  if (registry.outcome === 'unavailable') return row('dea_registry', 'flagged', `The registry (${registry.provider}) could not be reached; not checked.`);
  if (registry.status === 'not_found') return row('dea_registry', 'failed', `The registry (${registry.provider}) has no such registration.`);
  if (registry.status === 'inactive') return row('dea_registry', 'failed', `The registry (${registry.provider}) holds the registration as inactive.`);
  if (registry.last_name_matches === false)
    return row('dea_registry', 'flagged', `Registered, but to ${registry.registrant_name ?? 'another name'}, not the user's last name.`);
  return row('dea_registry', 'passed', `Active in the registry (${registry.provider}).`);
}
