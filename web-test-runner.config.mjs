// Component and capture tests in Debian's Chromium (never a downloaded browser), headless, with
// a fake camera fed from y4m files that the test fixtures generate here before launch.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { makeFakeCameras } from './test/src/fixtures/node/make-fake-cameras.mjs';
import { sessionApiDouble } from './test/src/fixtures/node/session-api-double.ts';
import { browserCommands } from './test/src/fixtures/node/browser-commands.ts';
import { buildFaceAssetsForTests } from './test/src/fixtures/node/face-assets.mjs';
import { CHROMIUM_PATH, chromiumArgs } from './test/helpers/chromium.ts';

const tmp = resolve('.wtr-tmp');
mkdirSync(tmp, { recursive: true });
const cameras = await makeFakeCameras(tmp);
await buildFaceAssetsForTests(resolve(tmp, 'vendor'));

/** One Chromium per fake camera file (Chromium reads one y4m per launch). */
function chromium(camera) {
  return chromeLauncher({
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: chromiumArgs(camera),
    },
  });
}

export default {
  rootDir: '.',
  nodeResolve: { exportConditions: ['browser', 'production'] },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: resolve('tsconfig.web.json') }), browserCommands()],
  middleware: [sessionApiDouble()],
  concurrency: 1,
  testsFinishTimeout: 600_000,
  testFramework: { config: { timeout: 20_000 } },
  browsers: [chromium(cameras.document)],
  groups: [
    {
      name: 'components',
      files: [
        'test/src/**/*.test.ts',
        '!test/src/capture/face-camera.test.ts',
        '!test/src/capture/face-flash.test.ts',
        '!test/src/steps/document_id/passport-camera.test.ts',
      ],
    },
    {
      name: 'face-camera',
      files: ['test/src/capture/face-camera.test.ts', 'test/src/capture/face-flash.test.ts'],
      browsers: [chromium(cameras.face)],
    },
    {
      name: 'passport-camera',
      files: ['test/src/steps/document_id/passport-camera.test.ts'],
      browsers: [chromium(cameras.passport)],
    },
  ],
};
