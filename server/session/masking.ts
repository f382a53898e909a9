import { parsePhoneNumberFromString } from 'libphonenumber-js';

/** `a***@example.com`: enough for the user to recognise the address, no more. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

/** `+41 ••• ••• 567`: the country code and the last three digits. */
export function maskPhone(phone: string): string {
  const parsed = parsePhoneNumberFromString(phone);
  const digits = phone.replace(/\D/g, '');
  const tail = digits.slice(-3);
  return parsed ? `+${parsed.countryCallingCode} ••• ••• ${tail}` : `••• ${tail}`;
}
