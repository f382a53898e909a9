/**
 * A software platform authenticator for tests: real ES256 keys from node's crypto, real CBOR
 * attestation objects (packed self-attestation) and real assertions, so the server's WebAuthn
 * verification runs unchanged. Each knob (`uv`, `origin`, `counter`) is a way a real device or an
 * attacker can answer differently.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

type Json = Record<string, unknown>;

export interface CeremonyKnobs {
  /** The UV flag (the device checked a fingerprint, face or PIN). Default true. */
  uv?: boolean;
  /** The page origin the browser reports. Default the authenticator's. */
  origin?: string;
  /** Replaces the challenge the options carried (an attacker answering an old prompt). */
  challenge?: string;
}

interface Stored {
  key: KeyObject;
  rpId: string;
  counter: number;
  userHandle: string;
}

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export class SoftwareAuthenticator {
  /** The AAGUID this "model" reports in its attestation. */
  readonly aaguid = Buffer.from('5f1a2b3c4d5e6f708192a3b4c5d6e7f8', 'hex');
  readonly credentials = new Map<string, Stored>();

  constructor(private readonly origin: string) {}

  /** `navigator.credentials.create()` on the server's registration options. */
  create(options: Json, knobs: CeremonyKnobs = {}): Json {
    const rp = options.rp as { id: string };
    const user = options.user as { id: string };
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credentialId = randomBytes(32);
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const attested = Buffer.concat([this.aaguid, u16(credentialId.length), credentialId, Buffer.from(isoCBOR.encode(cose))]);
    const authData = Buffer.concat([sha256(rp.id), Buffer.from([flags(knobs.uv ?? true, true)]), u32(0), attested]);
    const clientDataJSON = this.clientData('webauthn.create', knobs.challenge ?? String(options.challenge), knobs.origin);
    const sig = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'packed'],
        [
          'attStmt',
          new Map<string, unknown>([
            ['alg', -7],
            ['sig', new Uint8Array(sig)],
          ]),
        ],
        ['authData', new Uint8Array(authData)],
      ]) as never,
    );
    const id = b64(credentialId);
    this.credentials.set(id, { key: privateKey, rpId: rp.id, counter: 0, userHandle: user.id });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: b64(clientDataJSON), attestationObject: b64(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** `navigator.credentials.get()` on the server's authentication options, with credential `id` (default: the first allowed one held). */
  get(options: Json, knobs: CeremonyKnobs & { id?: string; counter?: number } = {}): Json {
    const allowed = (options.allowCredentials as { id: string }[] | undefined) ?? [];
    const id = knobs.id ?? allowed.find((c) => this.credentials.has(c.id))?.id;
    const cred = id ? this.credentials.get(id) : undefined;
    if (!id || !cred) throw new Error('no credential for these options');
    cred.counter = knobs.counter ?? cred.counter + 1;
    const authData = Buffer.concat([sha256(String(options.rpId ?? cred.rpId)), Buffer.from([flags(knobs.uv ?? true, false)]), u32(cred.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', knobs.challenge ?? String(options.challenge), knobs.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), cred.key);
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: { clientDataJSON: b64(clientDataJSON), authenticatorData: b64(authData), signature: b64(signature), userHandle: cred.userHandle },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string, origin?: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: origin ?? this.origin, crossOrigin: false }));
  }
}

/** UP always; UV when asked; AT (attested credential data) on registration. */
function flags(uv: boolean, attested: boolean): number {
  return 0x01 | (uv ? 0x04 : 0) | (attested ? 0x40 : 0);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
