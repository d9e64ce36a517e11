import type { HttpClient } from "./client";

/** Check 3 of the proof: filled in with the realtime feature's protocol. */
export async function realtimeCheck(_clients: {
  owner: HttpClient;
  other: HttpClient;
  web1: string;
  web2: string;
  web3: string;
}): Promise<string> {
  throw new Error("realtime check not written yet");
}
