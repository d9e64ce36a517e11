import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";

/**
 * A software WebAuthn authenticator for the server's tests: a P-256 key made with node:crypto, answering
 * registration options with attestation "none" and sign-in options with ES256 assertions, byte for byte
 * as the WebAuthn Level 2 specification lays them out (authenticator data, CBOR attestation object,
 * COSE key, client data JSON). It keeps a discoverable credential (the user handle it was given) and a
 * signature counter; each answer can be bent (another origin, a counter set back) to test refusals.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private userHandle: string | null = null;
  counter: number;

  constructor(
    readonly origin: string,
    readonly rpId: string = new URL(origin).hostname,
    startCounter = 0,
  ) {
    const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = pair.privateKey;
    const jwk = pair.publicKey.export({ format: "jwk" });
    this.publicJwk = { x: String(jwk.x), y: String(jwk.y) };
    this.counter = startCounter;
  }

  get id(): string {
    return this.credentialId.toString("base64url");
  }

  /** navigator.credentials.create()'s answer (RegistrationResponseJSON) to the server's options. */
  register(options: { challenge: string; user: { id: string } }, bend: { origin?: string; uv?: boolean } = {}) {
    this.userHandle = options.user.id;
    const clientData = this.clientData("webauthn.create", options.challenge, bend.origin);
    const cose = cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(this.publicJwk.x, "base64url")],
        [-3, Buffer.from(this.publicJwk.y, "base64url")],
      ]),
    );
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, this.credentialId, cose]);
    const authData = this.authenticatorData(bend.uv === false ? 0x41 : 0x45, attested);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: clientData.toString("base64url"),
        attestationObject: attestationObject.toString("base64url"),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get()'s answer (AuthenticationResponseJSON), its counter one up unless bent. */
  assert(options: { challenge: string }, bend: { origin?: string; counter?: number; uv?: boolean } = {}) {
    this.counter = bend.counter ?? this.counter + 1;
    const clientData = this.clientData("webauthn.get", options.challenge, bend.origin);
    const authData = this.authenticatorData(bend.uv === false ? 0x01 : 0x05);
    const signed = Buffer.concat([authData, createHash("sha256").update(clientData).digest()]);
    // ES256: ECDSA over SHA-256, DER-encoded as WebAuthn wants it (node's default for EC keys).
    const signature = sign("sha256", signed, this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: clientData.toString("base64url"),
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** rpIdHash (32) | flags (1: UP 0x01, UV 0x04, AT 0x40) | signCount (4, big-endian) | attested data. */
  private authenticatorData(flags: number, attested: Buffer = Buffer.alloc(0)): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const rpIdHash = createHash("sha256").update(this.rpId).digest();
    return Buffer.concat([rpIdHash, Buffer.from([flags]), count, attested]);
  }
}

/** The little CBOR (RFC 8949) WebAuthn needs: integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    const bytes = Buffer.alloc(3);
    bytes[0] = (major << 5) | 25;
    bytes.writeUInt16BE(length, 1);
    return bytes;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === "string") {
    const text = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, text.length), text]);
  }
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [key, item] of value) parts.push(cbor(key), cbor(item));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: unsupported value ${String(value)}`);
}
