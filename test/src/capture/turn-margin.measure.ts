/**
 * Measurement, not a test (run on its own: WTR_FILES=test/src/capture/turn-margin.measure.ts):
 * BlazeFace's yaw (the widget's detector and formula) next to the server's mesh turn on the
 * frames listed by scripts/eval/turn-margin.ts in .wtr-tmp/turn-margin.json. Prints one line per
 * turn frame: session, the server's turn change from the straight look, the widget's.
 */
import { loadFaceDetector } from '../../../src/capture/face-detector.js';
import { yawOf } from '../../../src/capture/liveness.js';

interface MarginFrame {
  readonly session: string;
  readonly role: 'straight' | 'turn';
  readonly path: string;
  readonly server: number | null;
}

it('measures the widget turn against the server turn', async function () {
  this.timeout(600_000);
  const frames = (await (await fetch('/.wtr-tmp/turn-margin.json')).json()) as MarginFrame[];
  const detector = await loadFaceDetector('/.wtr-tmp/vendor/', 'IMAGE');
  const lines: string[] = [];
  let straight: { server: number | null; widget: number | null } = { server: null, widget: null };
  for (const f of frames) {
    const img = new Image();
    img.src = f.path;
    await img.decode();
    const faces = detector.detectImage(img);
    const widget = faces.length === 1 ? yawOf(faces[0]!) : null;
    if (f.role === 'straight') straight = { server: f.server, widget };
    else {
      const ds = f.server !== null && straight.server !== null ? f.server - straight.server : null;
      const dw = widget !== null && straight.widget !== null ? widget - straight.widget : null;
      lines.push(`MARGIN ${f.session} server ${ds?.toFixed(3) ?? '-'} widget ${dw?.toFixed(3) ?? '-'} faces ${faces.length}`);
    }
  }
  detector.close();
  console.log(lines.join('\n'));
});
