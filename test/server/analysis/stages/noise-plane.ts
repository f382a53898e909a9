/** A grey plane of uniform noise (a fixed LCG): a zone that holds no print, for "reads nothing" guards. */
export function noisePlane(width: number, height: number, seed = 7): { data: Uint8Array; width: number; height: number } {
  const data = new Uint8Array(width * height);
  let s = seed;
  for (let k = 0; k < data.length; k++) {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    data[k] = s % 256;
  }
  return { data, width, height };
}
