import { companyOfChannel, type TBroadcastAuth } from "@app/core";
import type { AppContext } from "../../context";
import { AppError } from "../../infra/errors";
import { hmac, safeEqual } from "../../infra/security";
import type { AuthState } from "../auth/service";

/** The private channel of one user (joined after /broadcasting/user-auth and the socket's signin). */
export function userChannel(userId: string): string {
  return `user.${userId}`;
}

/**
 * Channel authorisation, Pusher/Laravel-Echo style: the HTTP endpoint checks the session and signs
 * (socket id, channel) with APP_KEY; the socket presents the signature when it subscribes, and the
 * Socket.IO server verifies it against its own id, so a signature is worth nothing to another socket.
 */
export function realtimeService(ctx: Pick<AppContext, "config">) {
  const key = ctx.config.appKey;
  const channelSignature = (socketId: string, channel: string) => hmac(key, `broadcast|${socketId}|${channel}`);
  const userSignature = (socketId: string, userData: string) => hmac(key, `broadcast-user|${socketId}|${userData}`);

  return {
    /**
     * POST /broadcasting/auth: only a member of the channel's company gets a signature, whichever
     * spelling the client asks for (`company.{id}`, or `private-company.{id}` from Laravel Echo and Pusher).
     */
    authorizeChannel(auth: AuthState | null, input: TBroadcastAuth): { auth: string } {
      if (!auth) throw new AppError("unauthenticated", "Unauthenticated.");
      if (companyOfChannel(input.channel_name) !== auth.company.id) {
        throw AppError.forbidden("You may not listen to this channel.");
      }
      return { auth: channelSignature(input.socket_id, input.channel_name) };
    },

    /** POST /broadcasting/user-auth: the signed-in user's identity for this socket. */
    authorizeUser(auth: AuthState | null, socketId: string): { auth: string; user_data: string } {
      if (!auth) throw new AppError("unauthenticated", "Unauthenticated.");
      const userData = JSON.stringify({ id: auth.user.id, user_info: { name: auth.user.name } });
      return { auth: userSignature(socketId, userData), user_data: userData };
    },

    /**
     * A socket of a session of `socketCompanyId` may listen to the channel on its session alone
     * (Laravel Echo's Socket.IO protocol, which sends no signature: the handshake's session cookie
     * is what its server would present to /broadcasting/auth).
     */
    mayListen(socketCompanyId: string, channel: string): boolean {
      return companyOfChannel(channel) === socketCompanyId;
    },

    /** A socket bound to a session of `companyId` may join the channel it holds a valid signature for. */
    mayJoin(socketId: string, socketCompanyId: string, channel: string, signature: string): boolean {
      const company = companyOfChannel(channel);
      return (
        company !== null && company === socketCompanyId && safeEqual(signature, channelSignature(socketId, channel))
      );
    },

    /** The user id of a signin's user data when its signature is this socket's and it is the socket's user. */
    signedUser(socketId: string, socketUserId: string, signature: string, userData: string): string | null {
      if (!safeEqual(signature, userSignature(socketId, userData))) return null;
      try {
        const id = (JSON.parse(userData) as { id?: unknown }).id;
        return id === socketUserId ? socketUserId : null;
      } catch {
        return null;
      }
    },
  };
}

export type RealtimeService = ReturnType<typeof realtimeService>;
