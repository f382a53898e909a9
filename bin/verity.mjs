#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so `npm start`, `npm run verity` and `npx verity` need no build.
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';
import { unsupportedNode } from './node-version.mjs';

const nodeProblem = unsupportedNode(process.versions.node);
if (nodeProblem) {
  process.stderr.write(`${nodeProblem}\n`);
  process.exit(1);
}

// V8 allocates objects of an allocation site straight in the old generation once most of them
// have been seen to outlive a scavenge. When it decided so for a site of the request path (about
// one server start in five under load, depending on timing), every request's short-lived objects
// were kept through scavenges and promoted, a full GC ran every second or so, and the server
// needed about 55 % more CPU per request for as long as it ran (issue 2; see README, "How fast the
// customer API is"). Without that pretenuring no start was slow in 35, against 8 in 35 with it.
setFlagsFromString('--no-allocation-site-pretenuring');
register();
const { main } = await import('../server/main.ts');
process.exitCode = await main(process.argv.slice(2));
