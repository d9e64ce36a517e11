import type { TSignedInSession } from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { nowIso } from "../../infra/security";
import type { AuthService } from "../auth/service";
import type { Actor } from "../users/service";
import type { PlaceLookup } from "./geoip";
import { signedInSessionsRepo } from "./repo";
import { describeUserAgent } from "./user-agent";

/**
 * The profile's list of the user's signed-in sessions (docs/product.md §2, "Signed-in sessions"): only
 * their own, named by public id; ending one goes through the auth service's `endSession`, which deletes
 * the row and tells every process (session caches, realtime sockets) to forget it at once.
 */
export function signedInSessionsService(ctx: AppContext, auth: () => AuthService, places: PlaceLookup) {
  const repo = signedInSessionsRepo(ctx.db);
  return {
    /** The user's live sessions: this one first, then the others, most recently used first. */
    async list(actor: Actor, currentId: string): Promise<TSignedInSession[]> {
      const rows = await repo.list(actor.companyId, actor.id, nowIso());
      rows.sort((a, b) => Number(b.id === currentId) - Number(a.id === currentId));
      return Promise.all(
        rows.map(async (row) => ({
          id: row.public_id,
          ...describeUserAgent(row.user_agent),
          place: await places.placeOf(row.ip_address),
          firstSeenAt: row.created_at,
          lastSeenAt: row.last_seen_at,
          current: row.id === currentId,
        })),
      );
    },

    /** Ends one of the user's sessions; another user's (or an unknown) id is a 404. */
    async end(actor: Actor, publicId: string): Promise<void> {
      const id = await repo.findId(actor.companyId, actor.id, publicId, nowIso());
      if (!id) throw AppError.notFound();
      await auth().endSession(id);
    },

    /** Ends every session of the user but the current one; answers how many were ended. */
    async endOthers(actor: Actor, currentId: string): Promise<number> {
      const others = (await repo.list(actor.companyId, actor.id, nowIso())).filter((row) => row.id !== currentId);
      for (const row of others) await auth().endSession(row.id);
      return others.length;
    },
  };
}

export type SignedInSessionsService = ReturnType<typeof signedInSessionsService>;
