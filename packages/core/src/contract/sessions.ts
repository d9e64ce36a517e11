import { z } from "zod";
import { dataEnvelope } from "./common";

/**
 * One of the current user's signed-in sessions, as the profile lists them: `id` is the session's public
 * id (the cookie's hash never leaves the server); browser and system come from the user agent, `place`
 * from the address only where the operator configured a GeoIP database (null otherwise or when unknown).
 */
export const ZSignedInSession = z.object({
  id: z.string(),
  browser: z.string().nullable().meta({ description: 'e.g. "Chrome 131"; null: unknown browser' }),
  system: z.string().nullable().meta({ description: 'e.g. "macOS 14.5"; null: unknown' }),
  place: z.string().nullable().meta({ description: 'e.g. "Berlin, Germany"; null: no GeoIP database or not found' }),
  firstSeenAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean().meta({ description: 'The session making this request ("This device")' }),
});
export type TSignedInSession = z.infer<typeof ZSignedInSession>;

export const ZSignedInSessionsResponse = dataEnvelope(z.array(ZSignedInSession));

export const ZSessionsEnded = dataEnvelope(z.object({ ended: z.number().int() }));
