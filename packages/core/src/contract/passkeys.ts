import { z } from "zod";
import { dataEnvelope } from "./common";

/**
 * Passkeys (WebAuthn) of docs/product.md §7: registered on the profile, used to sign in without a
 * password. What the browser's WebAuthn API answers travels as its JSON form (binary fields base64url),
 * as @simplewebauthn/browser produces it; the server checks every signature and binding.
 */

export const PASSKEY_NAME_MAX = 60;
export const PASSKEY_MESSAGES = {
  unreadable: "The passkey's answer could not be read. Please try again.",
  refused: "This passkey could not be verified. Please try again.",
  unknown: "This passkey is not registered with any account.",
  duplicate: "This passkey is already registered.",
  passwordRequired: "Enter your password to remove the passkey.",
  passwordWrong: "The password is incorrect.",
} as const;

const zBase64Url = (max: number) =>
  z
    .string({ error: PASSKEY_MESSAGES.unreadable })
    .min(1, PASSKEY_MESSAGES.unreadable)
    .max(max, PASSKEY_MESSAGES.unreadable)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, PASSKEY_MESSAGES.unreadable);

const zExtensionResults = z.record(z.string().max(64), z.unknown()).optional();
const zAttachment = z.enum(["platform", "cross-platform"]).optional();
const zTransports = z.array(z.string().max(32)).max(10).optional();

/** navigator.credentials.create()'s answer (RegistrationResponseJSON). */
export const ZPasskeyAttestation = z.object(
  {
    id: zBase64Url(1400),
    rawId: zBase64Url(1400),
    type: z.literal("public-key", { error: PASSKEY_MESSAGES.unreadable }),
    response: z.object({
      clientDataJSON: zBase64Url(8192),
      attestationObject: zBase64Url(65_536),
      authenticatorData: zBase64Url(65_536).optional(),
      transports: zTransports,
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: zBase64Url(8192).optional(),
    }),
    clientExtensionResults: zExtensionResults,
    authenticatorAttachment: zAttachment,
  },
  { error: PASSKEY_MESSAGES.unreadable },
);
export type TPasskeyAttestation = z.infer<typeof ZPasskeyAttestation>;

/** navigator.credentials.get()'s answer (AuthenticationResponseJSON). */
export const ZPasskeyAssertion = z.object(
  {
    id: zBase64Url(1400),
    rawId: zBase64Url(1400),
    type: z.literal("public-key", { error: PASSKEY_MESSAGES.unreadable }),
    response: z.object({
      clientDataJSON: zBase64Url(8192),
      authenticatorData: zBase64Url(65_536),
      signature: zBase64Url(2048),
      userHandle: zBase64Url(256).optional(),
    }),
    clientExtensionResults: zExtensionResults,
    authenticatorAttachment: zAttachment,
  },
  { error: PASSKEY_MESSAGES.unreadable },
);
export type TPasskeyAssertion = z.infer<typeof ZPasskeyAssertion>;

const zPasskeyName = z
  .string({ error: "The name field is required." })
  .trim()
  .min(1, "The name field is required.")
  .max(PASSKEY_NAME_MAX, `The name may not be greater than ${PASSKEY_NAME_MAX} characters.`);

/** POST /api/passkeys: the name the user gives it and the browser's answer to the registration options. */
export const ZPasskeyCreate = z.strictObject({ name: zPasskeyName, response: ZPasskeyAttestation });
export type TPasskeyCreate = z.infer<typeof ZPasskeyCreate>;

/** PUT /api/passkeys/{id}: a new name. */
export const ZPasskeyRename = z.strictObject({ name: zPasskeyName });
export type TPasskeyRename = z.infer<typeof ZPasskeyRename>;

/**
 * DELETE /api/passkeys/{id}: removing one asks again who is there, by the account's password or (an
 * account without one, signed up with Google, say) an assertion of one of the user's passkeys answered
 * to POST /api/passkeys/verify/options.
 */
export const ZPasskeyRemove = z.strictObject({
  password: z.string().max(1000).optional(),
  response: ZPasskeyAssertion.optional(),
});
export type TPasskeyRemove = z.infer<typeof ZPasskeyRemove>;

/** POST /passkey/login: the browser's answer to the sign-in options. */
export const ZPasskeySignIn = z.strictObject({ response: ZPasskeyAssertion });
export type TPasskeySignIn = z.infer<typeof ZPasskeySignIn>;

/** A registered passkey as the profile lists it (never its key). */
export const ZPasskey = z.object({
  id: z.string(),
  name: z.string(),
  transports: z.array(z.string()),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type TPasskey = z.infer<typeof ZPasskey>;
export const ZPasskeyResponse = dataEnvelope(ZPasskey);
/**
 * POST /api/passkeys: the passkey; with the user's first passkey, when it is their only second factor
 * (no authenticator app), their ten recovery codes, shown once.
 */
export const ZPasskeyCreated = ZPasskey.extend({
  recoveryCodes: z.array(z.string()).optional().meta({ description: "Shown once: the first passkey's recovery codes" }),
});
export type TPasskeyCreated = z.infer<typeof ZPasskeyCreated>;
export const ZPasskeyCreatedResponse = dataEnvelope(ZPasskeyCreated);
export const ZPasskeyListResponse = dataEnvelope(z.array(ZPasskey));

const ZCredentialDescriptor = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});
const zHints = z.array(z.string()).optional();
/** The client extensions the server asks for (@simplewebauthn asks for `credProps` at registration). */
const zExtensions = z
  .object({
    appid: z.string().optional(),
    credProps: z.boolean().optional(),
    hmacCreateSecret: z.boolean().optional(),
    minPinLength: z.boolean().optional(),
  })
  .optional();

/** PublicKeyCredentialCreationOptionsJSON: what the browser's registration is started with. */
export const ZPasskeyCreationOptions = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ type: z.string(), alg: z.number() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(ZCredentialDescriptor).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.string().optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.string().optional(),
      userVerification: z.string().optional(),
    })
    .optional(),
  hints: zHints,
  attestation: z.string().optional(),
  attestationFormats: z.array(z.string()).optional(),
  extensions: zExtensions,
});
export type TPasskeyCreationOptions = z.infer<typeof ZPasskeyCreationOptions>;

/** PublicKeyCredentialRequestOptionsJSON: what the browser's sign-in (assertion) is started with. */
export const ZPasskeyRequestOptions = z.object({
  challenge: z.string(),
  rpId: z.string().optional(),
  timeout: z.number().optional(),
  allowCredentials: z.array(ZCredentialDescriptor).optional(),
  userVerification: z.string().optional(),
  hints: zHints,
  extensions: zExtensions,
});
export type TPasskeyRequestOptions = z.infer<typeof ZPasskeyRequestOptions>;
export const ZPasskeyCreationOptionsResponse = dataEnvelope(ZPasskeyCreationOptions);
export const ZPasskeyRequestOptionsResponse = dataEnvelope(ZPasskeyRequestOptions);
