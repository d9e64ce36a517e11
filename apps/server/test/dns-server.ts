import dns2 from "dns2";
import { freePort } from "./wait";

const { Packet } = dns2;
type Answer = ReturnType<typeof Packet.createResponseFromRequest>["answers"][number];
// dns2's declared Resource lists every record kind's fields as one shape; an answer sets those of its kind.
const answer = (record: Record<string, unknown>) => record as unknown as Answer;

export interface DnsZone {
  /** host → TXT records, each one or more character-strings (as DNS splits long values). */
  txt?: Record<string, string[][]>;
  cname?: Record<string, string>;
  /** Hosts that never answer (the resolver times out). */
  silent?: string[];
}

/**
 * A real DNS server (dns2, UDP on a free loopback port) answering from `zone`, which tests may change
 * between lookups; what it does not know it answers with no records (NXDOMAIN-like empty answer).
 */
export async function startDnsServer(zone: DnsZone) {
  const port = await freePort();
  const server = dns2.createServer({
    udp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question.name.toLowerCase();
      if (zone.silent?.includes(name)) return;
      if (question.type === Packet.TYPE.TXT) {
        for (const data of zone.txt?.[name] ?? []) {
          response.answers.push(
            answer({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 60, data }),
          );
        }
      }
      if (question.type === Packet.TYPE.CNAME && zone.cname?.[name]) {
        response.answers.push(
          answer({
            name: question.name,
            type: Packet.TYPE.CNAME,
            class: Packet.CLASS.IN,
            ttl: 60,
            domain: zone.cname[name],
          }),
        );
      }
      send(response);
    },
  });
  await server.listen({ udp: { port, address: "127.0.0.1" } });
  return { server: `127.0.0.1:${port}`, close: () => server.close() };
}
