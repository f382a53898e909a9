#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npm start`, `npm run verity` and `npx verity` need no build.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/main.ts');
process.exitCode = await main(process.argv.slice(2));
