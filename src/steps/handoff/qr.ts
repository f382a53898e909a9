/** QR code as an SVG path (no innerHTML), using qrcode-generator. */
import qrcode from 'qrcode-generator';

/** The modules of a QR code for `text` as one SVG path `d`, and the size in modules. */
export function qrPath(text: string): { d: string; size: number } {
  const qr = qrcode(0, 'M');
  qr.addData(text);
  qr.make();
  const count = qr.getModuleCount();
  const parts: string[] = [];
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) {
      if (qr.isDark(row, col)) parts.push(`M${col + 4},${row + 4}h1v1h-1z`);
    }
  }
  // Four modules of quiet zone on each side.
  return { d: parts.join(''), size: count + 8 };
}
