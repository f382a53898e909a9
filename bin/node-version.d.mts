/** Why this Node cannot run Verity, or null when it can (see node-version.mjs). */
export function unsupportedNode(version: string): string | null;
