/**
 * The domains a Mission Control group tracks: what a person types or pastes (a bare name, a URL from the
 * address bar, a name in capitals or in Unicode) becomes one normalised host, or a message saying why
 * it cannot be tracked. Pure: `new URL()` does the IDN-to-punycode step in Node and in browsers alike,
 * so the form and the server agree on every answer.
 */

/** The WHATWG URL parser of Node and browsers alike (core compiles without either's type libraries). */
declare const URL: new (input: string) => { hostname: string };

/** The words of the domain field's refusals (shown under the field, answered in the 422). */
export const DOMAIN_MESSAGES = {
  required: "The domain field is required.",
  invalid: "Enter a domain such as example.com.",
  ipAddress: "Enter a domain name, not an IP address.",
  notPublic: "This name is not on the public internet; enter a public domain such as example.com.",
  tooLong: "The domain may not be longer than 253 characters.",
  duplicate: "This domain is already in the group.",
} as const;

/** Longest text the field takes: a URL pasted from the address bar, not a document. */
export const MAX_DOMAIN_INPUT = 2048;

/**
 * Top-level names that never resolve on the public internet: RFC 2606 / 6761 reserved names, mDNS,
 * the ICANN-reserved `.internal`, Tor's `.onion`, reverse DNS, and intranet names people commonly use.
 */
const PRIVATE_TLDS = new Set([
  "localhost",
  "local",
  "localdomain",
  "internal",
  "test",
  "example",
  "invalid",
  "onion",
  "arpa",
  "lan",
  "home",
  "corp",
  "intranet",
  "private",
]);

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** A TLD is letters (two or more), or an internationalised one in punycode. */
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export type DomainResult = { ok: true; domain: string } | { ok: false; message: string };

/**
 * The host a group tracks for `input`: lower case, punycode, without scheme, port, path, query, a
 * trailing dot or a leading `www.` (the same site for every SEO metric, and the duplicate people make
 * most often); other subdomains stay (blog.example.com is tracked apart from example.com).
 */
export function normaliseDomain(input: string): DomainResult {
  const text = input.trim();
  if (text === "") return { ok: false, message: DOMAIN_MESSAGES.required };
  // A user name or an e-mail address ('@') is not a site, even though a URL parser would find a host in it.
  if (text.length > MAX_DOMAIN_INPUT || /[\s@]/.test(text)) return { ok: false, message: DOMAIN_MESSAGES.invalid };
  const hasScheme = SCHEME.test(text);
  if (hasScheme && !/^https?:\/\//i.test(text)) return { ok: false, message: DOMAIN_MESSAGES.invalid };
  let host: string;
  try {
    host = new URL(hasScheme ? text : `http://${text}`).hostname;
  } catch {
    return { ok: false, message: DOMAIN_MESSAGES.invalid };
  }
  // An IPv6 literal keeps its brackets; an IPv4 one (even '127.1') comes back as four numbers.
  if (host.startsWith("[") || /^\d+(?:\.\d+){3}$/.test(host)) return { ok: false, message: DOMAIN_MESSAGES.ipAddress };
  host = host.replace(/\.$/, "").replace(/^www\./, "");
  if (host.length > 253) return { ok: false, message: DOMAIN_MESSAGES.tooLong };
  const labels = host.split(".");
  const tld = labels[labels.length - 1];
  if (labels.length === 1 && PRIVATE_TLDS.has(tld)) return { ok: false, message: DOMAIN_MESSAGES.notPublic };
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label)) || !TLD.test(tld)) {
    return { ok: false, message: DOMAIN_MESSAGES.invalid };
  }
  if (PRIVATE_TLDS.has(tld)) return { ok: false, message: DOMAIN_MESSAGES.notPublic };
  return { ok: true, domain: host };
}
