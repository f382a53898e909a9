/**
 * The path a request's URL names, as the router would read it: percent-encodings decoded (each on
 * its own, so one bad escape does not hide the rest), runs of slashes, a trailing slash and dot
 * segments folded, letters lower-cased. Only for deciding what a URL is *about* (is this the customer API, is this a
 * bearer link in a log line): routing and authentication follow the route that matched, never a
 * string test of the raw URL, which `/%61pi/users` or `//api/users` would pass by.
 */
export function canonicalPath(url: string): string {
  const q = url.indexOf('?');
  const raw = q < 0 ? url : url.slice(0, q);
  // Most paths (every access-log line reads one) have nothing to decode or fold.
  if (!NEEDS_FOLDING.test(raw)) return raw;
  // Decoded twice: a doubly encoded `%2561` names `%61` to a decoder further down the line.
  const decoded = decodeEach(decodeEach(raw));
  const resolved: string[] = [];
  // Dot segments resolved as a proxy in front of us (or the client) might resolve them.
  for (const segment of decoded.toLowerCase().split(/[/\\]+/)) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') resolved.pop();
    else resolved.push(segment);
  }
  return '/' + resolved.join('/');
}

/** What canonicalisation would change: an escape, a backslash, a dot segment, a capital or any non-ASCII letter, a doubled or trailing slash. */
const NEEDS_FOLDING = /[%\\.A-Z\u0080-\uffff]|\/\/|\/$|^[^/]|^$/;

function decodeEach(path: string): string {
  return path.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The customer API's OpenAPI document is public; everything else under `/api` needs a key. */
const PUBLIC_API_PATHS = new Set(['/api/openapi.json']);

/**
 * Whether a URL that matched no route (or failed before routing) is aimed at the customer API, so
 * that its refusal still follows the API's order (403, 401, 429) and carries rate-limit headers.
 */
export function aimsAtCustomerApi(url: string): boolean {
  const path = canonicalPath(url);
  return (path === '/api' || path.startsWith('/api/')) && !PUBLIC_API_PATHS.has(path);
}
