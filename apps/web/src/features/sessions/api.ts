import type { TSignedInSession } from "@app/core";
import { call } from "../../lib/api";

export async function fetchSignedInSessions(): Promise<TSignedInSession[]> {
  return (await call("userSessionsList")).data;
}

/** Signs one of the user's other sessions out (that browser is signed out on its next request). */
export async function endSession(id: string): Promise<void> {
  await call("userSessionEnd", { params: { id } });
}

/** Signs out every session of the user but this one; answers how many were ended. */
export async function endOtherSessions(): Promise<number> {
  return (await call("userSessionsEndOthers")).data.ended;
}
