/**
 * A verification's analysis as checks a person can read: one row per check, with its outcome, the
 * reason in words and the number behind it where there is one. Built from what the analysis stored
 * (a document job's `content` and flags, a face result's attributes); a check the analysis could
 * not do is `not_run`, never `passed`.
 */

export type CheckOutcome = 'passed' | 'flagged' | 'failed' | 'not_run';

export interface VerificationCheck {
  /** Stable machine name (`photoshopped`, `face_match`, …). */
  name: string;
  outcome: CheckOutcome;
  /** Why, in words, when not passed. */
  reason: string | null;
  /** The measured value (a score, a similarity) when the check has one. */
  value: number | null;
}

/** What a document job stored: its status, failure reason, analysis content and decision flags. */
export interface StoredDocumentJob {
  status: string;
  reason: string | null;
  content: StoredDocumentContent | null;
  flags: readonly string[];
}

/** The parts of `document_data.content` the checks read (spec 2.7). */
export interface StoredDocumentContent {
  photoshopped?: boolean;
  mrz_data?: readonly { valid?: boolean }[];
  ai_analysis?: { name_match?: { full_name?: boolean }; internet_detection?: boolean };
  document_processor?: Record<string, unknown>;
}

const check = (name: string, outcome: CheckOutcome, reason: string | null = null, value: number | null = null): VerificationCheck => ({
  name,
  outcome,
  reason,
  value,
});

/** The checks of one analysed document image. */
export function documentChecks(job: StoredDocumentJob): VerificationCheck[] {
  if (job.status === 'Processing') return [check('analysis', 'not_run', 'The analysis has not finished.')];
  if (job.status !== 'Success' || !job.content) return [check('readable', 'failed', job.reason ?? 'The document could not be read.')];
  const c = job.content;
  const flagged = (flag: string) => job.flags.includes(flag);
  const mrz = c.mrz_data ?? [];
  return [
    check('readable', 'passed'),
    flagged('no_machine_readable_data')
      ? check('machine_readable_data', 'flagged', 'Neither a barcode nor a valid MRZ was read: the printed fields cannot be authenticated.')
      : check('machine_readable_data', 'passed'),
    mrz.length === 0
      ? check('mrz_check_digits', 'not_run', 'The document has no MRZ, or it was not read.')
      : mrz.some((m) => m.valid === false)
        ? check('mrz_check_digits', 'failed', 'A check digit of the MRZ does not hold.')
        : flagged('mrz_uncertain')
          ? check(
              'mrz_check_digits',
              'flagged',
              'The check digits hold, but the MRZ readings disagreed where no check digit can tell (a name, the sex, the nationality, or G/6 in the number): compare the MRZ with the page.',
            )
          : check('mrz_check_digits', 'passed'),
    c.photoshopped === undefined
      ? check('photoshopped', 'not_run')
      : c.photoshopped
        ? check('photoshopped', 'flagged', 'The image was edited (editing software, or a pasted region).')
        : check('photoshopped', 'passed'),
    c.ai_analysis?.internet_detection === undefined
      ? check('screen_recapture', 'not_run')
      : c.ai_analysis.internet_detection
        ? check('screen_recapture', 'flagged', 'The image is a photo of a screen.')
        : check('screen_recapture', 'passed'),
    c.ai_analysis?.name_match === undefined
      ? check('name_match', 'not_run', "The user's name was not given, or not read on the document.")
      : c.ai_analysis.name_match.full_name
        ? check('name_match', 'passed')
        : check('name_match', 'flagged', "The name on the document does not match the user's name."),
  ];
}

/** What a face analysis stored in the verification's attributes. */
export interface StoredFaceResult {
  decision?: string;
  reasons?: readonly string[];
  similarity?: number;
  liveness?: number;
  antispoof?: number;
  challenges?: readonly { challenge?: string; passed?: boolean }[];
}

/** Reason codes of the face analysis (`server/analysis/stages/selfie.ts`), in words. */
const FACE_REASON_WORDS: Record<string, string> = {
  NO_FACE: 'No face was found.',
  MULTIPLE_FACES: 'More than one face was found.',
  NO_REFERENCE_FACE: 'There was no document portrait to compare the face with.',
  FACE_MISMATCH: 'The face does not match the document portrait.',
  FACE_MATCH_UNCERTAIN: 'The face match is uncertain: a person should look.',
  DIFFERENT_PERSON_ACROSS_FRAMES: 'The frames show more than one person.',
  CHALLENGE_NOT_PERFORMED: 'A liveness move was not done as asked.',
  SPOOF_SUSPECTED: 'The capture may be a print or a screen.',
};

/** The checks of a selfie or liveness capture. */
export function faceChecks(result: StoredFaceResult): VerificationCheck[] {
  const reasons = new Set(result.reasons ?? []);
  const words = (code: string) => FACE_REASON_WORDS[code] ?? code;
  const first = (...codes: string[]) => codes.find((c) => reasons.has(c));
  const out: VerificationCheck[] = [];

  const noFace = first('NO_FACE', 'MULTIPLE_FACES');
  out.push(noFace ? check('face_present', 'failed', words(noFace)) : check('face_present', 'passed'));

  const similarity = result.similarity ?? null;
  if (reasons.has('FACE_MISMATCH')) out.push(check('face_match', 'failed', words('FACE_MISMATCH'), similarity));
  else if (reasons.has('FACE_MATCH_UNCERTAIN')) out.push(check('face_match', 'flagged', words('FACE_MATCH_UNCERTAIN'), similarity));
  else if (reasons.has('NO_REFERENCE_FACE')) out.push(check('face_match', 'flagged', words('NO_REFERENCE_FACE')));
  else if (similarity === null) out.push(check('face_match', 'not_run', 'No document portrait to compare with was required.'));
  else out.push(check('face_match', 'passed', null, similarity));

  const challenges = result.challenges ?? [];
  if (challenges.length > 0 || reasons.has('CHALLENGE_NOT_PERFORMED')) {
    const failed = challenges.filter((c) => c.passed === false).map((c) => c.challenge ?? 'move');
    out.push(
      failed.length || reasons.has('CHALLENGE_NOT_PERFORMED')
        ? check('liveness_challenges', 'failed', failed.length ? `Not done as asked: ${failed.join(', ')}.` : words('CHALLENGE_NOT_PERFORMED'))
        : check('liveness_challenges', 'passed'),
    );
  }
  if (reasons.has('DIFFERENT_PERSON_ACROSS_FRAMES')) out.push(check('same_person', 'failed', words('DIFFERENT_PERSON_ACROSS_FRAMES')));
  if (result.antispoof !== undefined || reasons.has('SPOOF_SUSPECTED')) {
    const score = result.antispoof ?? null;
    out.push(reasons.has('SPOOF_SUSPECTED') ? check('anti_spoof', 'flagged', words('SPOOF_SUSPECTED'), score) : check('anti_spoof', 'passed', null, score));
  }
  // Codes no row above speaks for still reach the reader.
  for (const code of reasons) if (!(code in FACE_REASON_WORDS)) out.push(check(code.toLowerCase(), 'flagged', code));
  return out;
}

/** What Biometric ID stores (methods/biometric_id): what its last ceremony proved. */
export interface StoredPasskeyResult {
  proof?: 'passkey_registered' | 'passkey_assertion' | null;
  ceremony?: 'register' | 'assert';
  sign_count?: number;
}

/** Whether a verification's attributes are Biometric ID's (they alone carry `proof` with a passkey ceremony). */
export function isPasskeyResult(attributes: Record<string, unknown>): boolean {
  return (
    attributes.proof === 'passkey_registered' ||
    attributes.proof === 'passkey_assertion' ||
    (attributes.proof === null && (attributes.ceremony === 'register' || attributes.ceremony === 'assert'))
  );
}

/** The checks of a passkey ceremony: what the server verified, and what it did not. */
export function passkeyChecks(result: StoredPasskeyResult): VerificationCheck[] {
  if (!result.proof) return [check('passkey_signature', 'failed', 'Five passkey ceremonies in a row did not verify.')];
  const out = [check('passkey_signature', 'passed'), check('user_verified', 'passed')];
  if (result.proof === 'passkey_registered') {
    out.push(check('attestation_root', 'not_run', "The attestation's signature was verified; its certificate chain is not checked against a vendor root."));
  } else {
    out.push(check('sign_counter', 'passed', null, result.sign_count ?? null));
  }
  return out;
}

/** The attributes a provider sign-in (Social Account, or Payment Account with a provider) leaves, by prefix. */
type AccountAttributes = Record<string, unknown>;

/** The attribute prefix of a provider sign-in's result (`social` or `payment_provider`), or null when there is none. */
export function accountPrefix(attributes: AccountAttributes): 'social' | 'payment_provider' | null {
  if (typeof attributes.social_issuer === 'string') return 'social';
  if (typeof attributes.payment_provider_issuer === 'string') return 'payment_provider';
  return null;
}

/**
 * The checks of a provider sign-in: the sign-in itself (its ID token was verified, or nothing was
 * recorded), the provider's word on the e-mail, the e-mail against the one expected, and whether
 * another user of the deployment proved the same provider account.
 */
export function accountChecks(attributes: AccountAttributes, prefix: 'social' | 'payment_provider'): VerificationCheck[] {
  const at = (name: string) => attributes[`${prefix}_${name}`];
  const sharedWith = attributes[prefix === 'social' ? 'social_account_shared_with' : 'payment_provider_shared_with'];
  const shared: unknown[] = Array.isArray(sharedWith) ? sharedWith : [];
  return [
    check('provider_sign_in', 'passed'),
    at('email_verified') === 1
      ? check('provider_email_verified', 'passed')
      : check('provider_email_verified', 'flagged', 'The provider has not verified the e-mail address of the account.'),
    at('email_matches') === 1 ? check('email_match', 'passed') : check('email_match', 'flagged', 'The provider account has another e-mail address.'),
    shared.length === 0
      ? check('account_unique', 'passed')
      : check('account_unique', 'flagged', `The same provider account was proven by other users: ${shared.join(', ')}.`, shared.length),
  ];
}

/**
 * The checks of the customer's document requirements (`custom_verify_data.document`), as the
 * document decision stored them in the verification's `attributes.requirements`.
 */
export function requirementChecks(attributes: Record<string, unknown>): VerificationCheck[] {
  const stored = Array.isArray(attributes.requirements) ? (attributes.requirements as unknown[]) : [];
  const outcomes: readonly string[] = ['passed', 'flagged', 'failed', 'not_run'];
  return stored.flatMap((r) => {
    if (typeof r !== 'object' || r === null) return [];
    const { name, outcome, reason, value } = r as Record<string, unknown>;
    if (typeof name !== 'string' || typeof outcome !== 'string' || !outcomes.includes(outcome)) return [];
    return [check(name, outcome as CheckOutcome, typeof reason === 'string' ? reason : null, typeof value === 'number' ? value : null)];
  });
}
