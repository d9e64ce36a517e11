import { Resolver } from "node:dns/promises";
import { type SenderRecord, txtMatches } from "./records";

export interface RecordCheck {
  kind: SenderRecord["kind"];
  verified: boolean;
  /** Why not, in words for the settings page; null when verified. */
  problem: string | null;
}

/** One DNS query may take this long (the whole check: three queries, in parallel). */
const QUERY_TIMEOUT_MS = 3000;

function problemOf(error: unknown, record: SenderRecord): string {
  const code = (error as { code?: string }).code;
  if (code === "ENOTFOUND" || code === "ENODATA") return `No ${record.type} record found at ${record.host}.`;
  if (code === "ETIMEOUT" || code === "ECONNREFUSED") return "The DNS lookup timed out. Try again in a minute.";
  return `The DNS lookup failed (${code ?? "unknown error"}).`;
}

/**
 * Looks the records up with real DNS queries (node:dns Resolver; `servers` from DNS_SERVERS, so tests
 * point it at a local DNS server). Each record is checked on its own: one missing never hides another.
 */
export async function checkRecords(records: SenderRecord[], servers: string[]): Promise<RecordCheck[]> {
  const resolver = new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: 1 });
  if (servers.length > 0) resolver.setServers(servers);
  return Promise.all(
    records.map(async (record): Promise<RecordCheck> => {
      try {
        if (record.type === "CNAME") {
          const targets = await resolver.resolveCname(record.host);
          const wanted = record.value.toLowerCase().replace(/\.$/, "");
          const ok = targets.some((target) => target.toLowerCase().replace(/\.$/, "") === wanted);
          return {
            kind: record.kind,
            verified: ok,
            problem: ok ? null : `${record.host} points at ${targets.join(", ")}, not ${record.value}.`,
          };
        }
        const found = await resolver.resolveTxt(record.host);
        const ok = txtMatches(record.kind, record, found);
        return {
          kind: record.kind,
          verified: ok,
          problem: ok ? null : `The TXT record at ${record.host} does not match the value to add.`,
        };
      } catch (error) {
        return { kind: record.kind, verified: false, problem: problemOf(error, record) };
      }
    }),
  );
}
