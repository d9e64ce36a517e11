import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { Readable } from "node:stream";

/**
 * Requests to hosts a user typed (a rank tracker's or a shop's own address) must not reach this
 * deployment's private network: an address that resolves to loopback, a private range, link-local
 * (cloud metadata at 169.254.169.254) or the like is refused. The check runs inside the connection's
 * own DNS look-up, so the address checked is the address connected to (a name that resolves to a public
 * address for the check and a private one for the connection, DNS rebinding, gains nothing).
 */

/** IPv4 ranges that are not the public internet (RFC 6890 and friends). */
const V4_BLOCKED: readonly [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

const v4Number = (address: string) => address.split(".").reduce((value, part) => value * 256 + Number(part), 0);

function v4Public(address: string): boolean {
  const value = v4Number(address);
  return !V4_BLOCKED.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4Number(base);
    return value >= start && value < start + size;
  });
}

/** The 8 groups of an IPv6 address as numbers (handles `::` and a dotted IPv4 tail). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().split("%")[0] ?? "";
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const value = v4Number(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const part = (chunk: string) => (chunk ? chunk.split(":").map((group) => Number.parseInt(group, 16)) : []);
  const start = part(head);
  const end = tail === undefined ? [] : part(tail);
  const zeros = tail === undefined ? 0 : 8 - start.length - end.length;
  return [...start, ...Array.from({ length: zeros }, () => 0), ...end];
}

function v6Public(address: string): boolean {
  const groups = v6Groups(address);
  const [first = 0] = groups;
  if (groups.every((group) => group === 0)) return false; // :: unspecified
  if (groups.slice(0, 7).every((group) => group === 0) && groups[7] === 1) return false; // ::1
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64): the IPv4 address inside decides.
  const embedded = () => `${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) return v4Public(embedded());
  if (first === 0x64 && groups[1] === 0xff9b) return v4Public(embedded());
  if ((first & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((first & 0xff00) === 0xff00) return false; // multicast
  if (first === 0x2001 && groups[1] === 0x0db8) return false; // documentation
  return true;
}

/** True when the address is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return v4Public(address);
  if (family === 6) return v6Public(address);
  return false;
}

export class BlockedAddressError extends Error {
  readonly code = "EBLOCKED";
  constructor(host: string, address: string) {
    super(`${host} resolves to ${address}, which is not a public address`);
  }
}

/** Host names (or addresses) a deployment allows even when they are private: its test fakes, an intranet tool. */
export type AllowList = readonly string[];

const allowed = (allow: AllowList, host: string) => allow.includes(host.toLowerCase().replace(/^\[|\]$/g, ""));

/** A `lookup` for node:http that resolves as usual, then refuses any answer that is not public. */
export function guardedLookup(allow: AllowList): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as dns.LookupAddress[];
      if (!allowed(allow, hostname)) {
        const bad = list.find((entry) => !isPublicAddress(entry.address));
        if (bad) return callback(new BlockedAddressError(hostname, bad.address), "", 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), "", 0);
      callback(null, first.address, first.family);
    });
  };
}

/**
 * `fetch` for a user-supplied address: node:http(s) with the guarded look-up, no redirects followed
 * (a redirect could point anywhere; the caller sees the 3xx). Addresses written as IP literals skip DNS,
 * so they are checked here.
 */
export function guardedFetch(allow: AllowList) {
  const lookup = guardedLookup(allow);
  return (
    input: string,
    init: { method?: string; headers?: Record<string, string>; body?: string; signal?: AbortSignal } = {},
  ) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input);
      if (url.protocol !== "http:" && url.protocol !== "https:") {
        reject(new Error(`${url.protocol} addresses are not fetched`));
        return;
      }
      const host = url.hostname.replace(/^\[|\]$/g, "");
      if (net.isIP(host) && !isPublicAddress(host) && !allowed(allow, host)) {
        reject(new BlockedAddressError(host, host));
        return;
      }
      const client = url.protocol === "https:" ? https : http;
      const request = client.request(
        url,
        { method: init.method ?? "GET", headers: init.headers, lookup, signal: init.signal },
        (response) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(response.headers)) {
            if (Array.isArray(value)) for (const item of value) headers.append(name, item);
            else if (value !== undefined) headers.set(name, value);
          }
          const status = response.statusCode ?? 502;
          const body = status === 204 || status === 304 ? null : (Readable.toWeb(response) as ReadableStream);
          resolve(new Response(body, { status, headers }));
        },
      );
      request.on("error", reject);
      if (init.body !== undefined) request.write(init.body);
      request.end();
    });
}
