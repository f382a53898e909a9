/** Field names whose values are personal data in a 6.3 payload; masked when a body is shown. */
const PII_KEYS = new Set([
  'email',
  'payment_email',
  'ip',
  'reference_id',
  'order_id',
  'phone',
  'first_name',
  'last_name',
  'full_name',
  'name_on_card',
  'address',
  'birthday',
  'date_of_birth',
  'document_number',
  'latitude',
  'longitude',
]);

function maskValue(value: unknown): unknown {
  if (value === null || value === undefined || value === '') return value;
  if (typeof value === 'string') return value.length <= 2 ? '••' : `${value[0]}••••${value.length > 6 ? value[value.length - 1] : ''}`;
  if (typeof value === 'number' || typeof value === 'boolean') return '••';
  if (Array.isArray(value)) return value.map(maskValue);
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskValue(v)]));
  return '••';
}

/**
 * A copy of a payload with personal data masked (spec 6.1: bodies are shown masked by default):
 * the known PII fields anywhere, and every value inside `attributes`, which holds method data
 * (e-mail addresses, document numbers) whose keys vary by method.
 */
export function maskPayload(value: unknown, insideAttributes = false): unknown {
  if (Array.isArray(value)) return value.map((v) => maskPayload(v, insideAttributes));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (insideAttributes || PII_KEYS.has(k)) return [k, maskValue(v)];
        if (k === 'attributes') return [k, maskPayload(v, true)];
        return [k, maskPayload(v, false)];
      }),
    );
  }
  return insideAttributes ? maskValue(value) : value;
}
