/**
 * What a recording must not keep: the source's secrets (tokens, keys, refresh tokens), the account and
 * its ids, e-mail addresses and people's names. Each is replaced by a placeholder, the same one for every
 * occurrence (an id in a request's path and in the answer that listed it stay equal), so a recording
 * still replays: the replayed source carries the placeholders instead of the real values.
 */

/** Query parameters, form fields, JSON keys and headers whose values are secrets wherever they appear. */
const SECRET_NAME =
  /^(authorization|cookie|set-cookie|x-api-key|api[-_]?key|key|token|access[-_]?token|refresh[-_]?token|id[-_]?token|client[-_]?secret|consumer[-_]?(key|secret)|secret|password|signature|appsecret[-_]?proof|fb_exchange_token)$/i;
/** In addresses and forms also an OAuth authorisation code (in a JSON answer `code` is mostly a status). */
const SECRET_FIELD = new RegExp(`${SECRET_NAME.source.slice(0, -2)}|code)$`, "i");
/** JSON keys whose string values name a person or the client's account (a customer, an advertiser, a page). */
const PERSON_NAME =
  /^(descriptive[-_]?name|business[-_]?name|account[-_]?name|advertiser[-_]?name|page[-_]?name|organi[sz]ation[-_]?name|localized[-_]?name|company[-_]?name|first[-_]?name|last[-_]?name|full[-_]?name|display[-_]?name|user[-_]?name|owner[-_]?name|contact[-_]?name|owner|author|given[-_]?name|family[-_]?name|localizedFirstName|localizedLastName)$/i;
/** JSON keys whose values identify an account (advertiser, customer, property, business…). */
const ACCOUNT_ID = /(^id$|_id$|Id$|^account|^customer|^property|^advertiser|^business|^organization|^owner_id)/i;
const DOMAIN = /^(?:[a-z0-9-]+\.)+[a-z]{2,}$/i;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
/** Long digit runs in an address's path: account, customer, property ids. */
const PATH_DIGITS = /\d{5,}/g;

export interface Known {
  /** The source's credential values (split on `|` for consumer key|secret pairs). */
  secrets: readonly string[];
  /** The account and ids (property, advertiser, customer…) the source and its option lists name. */
  ids: readonly string[];
  /** Names shown to people: the account's, the properties' labels. */
  names: readonly string[];
}

export interface Scrubber {
  /** A text anywhere (an address, a body as sent, a CSV answer). */
  text(value: string): string;
  /** A parsed answer or body: keys kept, secret, person and id values replaced. */
  value(value: unknown, key?: string): unknown;
  /** A request body as sent: JSON, a form, or text. */
  body(value: string): string;
  /** An address: its path's ids and its query's secrets replaced. */
  url(value: string): string;
  /** Headers worth keeping (content type, paging): secrets dropped. */
  headers(headers: Readonly<Record<string, string>>): Record<string, string>;
}

const KEPT_HEADERS =
  /^(content-type|link|x-wp-total|x-wp-totalpages|x-ratelimit-[a-z-]+|x-business-use-case-usage|x-app-usage|x-ad-account-usage|retry-after)$/i;

export function createScrubber(known: Known): Scrubber {
  const mapping = new Map<string, string>();
  const counters = { SECRET: 0, ID: 0, NAME: 0, EMAIL: 0 };
  const made = new Set<string>();
  /** Values replaced wherever they appear in text; a name met in a name field is replaced there only. */
  const everywhere = new Set<string>();
  const placeholder = (kind: keyof typeof counters, real: string): string => {
    // A placeholder met again (a path's id already replaced by name) stays as it is; so does nothing.
    if (made.has(real) || real === "") return real;
    const found = mapping.get(real);
    if (found) return found;
    counters[kind] += 1;
    const replacement =
      kind === "EMAIL"
        ? `person${counters.EMAIL}@example.com`
        : kind === "ID"
          ? // Digits stay digits: a connector may check an id's shape (Ads' ten-digit customer ids).
            /^\d+$/.test(real)
            ? `9${String(counters.ID).padStart(real.length - 1, "0")}`
            : // As long as the real one: a connector may check an id's length (a spreadsheet's, a page's).
              `id${counters.ID}`.padEnd(real.length, "x")
          : kind === "NAME" && DOMAIN.test(real)
            ? // A client's domain (an SEO tool's account) stays a domain.
              `site${counters.NAME}.example.com`
            : `${kind.toLowerCase()}-${counters[kind]}`;
    mapping.set(real, replacement);
    made.add(replacement);
    // Found by its field's name: replaced everywhere only when long enough not to be found by chance.
    if (registering || (kind === "ID" && real.length >= 5) || (kind === "SECRET" && real.length >= 8)) {
      everywhere.add(real);
    }
    return replacement;
  };
  let registering = true;
  const secrets = known.secrets.flatMap((secret) => [secret, ...secret.split("|")]).filter((item) => item.length >= 4);
  for (const secret of secrets) placeholder("SECRET", secret);
  // An id made of parts ("1112223333/4445556666", "act_123…") keeps its shape: each part is replaced.
  // Short values would be found inside figures and words ("123" in "41234"): parts of five characters
  // or more, and names of four, are replaced wherever they appear.
  // A part is an id when it holds a digit: "properties/123…" keeps its word.
  const parts = (item: string) =>
    /^[A-Za-z0-9-]+$/.test(item) ? [item] : (item.match(/[A-Za-z0-9]{5,}/g) ?? []).filter((part) => /\d/.test(part));
  for (const id of known.ids.flatMap(parts).filter((item) => item.length >= 5)) placeholder("ID", id);
  for (const name of known.names.filter((item) => item.length >= 4)) placeholder("NAME", name);
  registering = false;

  const text = (value: string): string => {
    // Longest first, so an id inside a longer known value is not replaced half-way.
    let out = value;
    for (const real of [...everywhere].sort((a, b) => b.length - a.length)) {
      if (out.includes(real)) out = out.split(real).join(mapping.get(real) as string);
    }
    return out.replace(EMAIL, (email) => (email.endsWith("@example.com") ? email : placeholder("EMAIL", email)));
  };

  const value = (input: unknown, key?: string): unknown => {
    if (key && SECRET_NAME.test(key) && typeof input === "string") return placeholder("SECRET", input);
    if (typeof input === "string") {
      if (key && PERSON_NAME.test(key) && input.trim() !== "") return placeholder("NAME", input);
      if (key && ACCOUNT_ID.test(key) && /^\d{5,}$/.test(input)) return placeholder("ID", input);
      // Resource names carry ids after a slash ("customers/1112223333/…").
      return text(input).replace(/\/(\d{5,})(?=\/|$)/g, (_whole, digits: string) => `/${placeholder("ID", digits)}`);
    }
    if (typeof input === "number" && key && ACCOUNT_ID.test(key) && Number.isInteger(input) && input >= 10_000) {
      return Number(placeholder("ID", String(input)));
    }
    if (Array.isArray(input)) return input.map((item) => value(item, key));
    if (input && typeof input === "object") {
      return Object.fromEntries(Object.entries(input).map(([name, item]) => [name, value(item, name)]));
    }
    return input;
  };

  const url = (address: string): string => {
    const parsed = new URL(address);
    parsed.pathname = parsed.pathname
      .split("/")
      .map((segment) => text(decodeURIComponent(segment)).replace(PATH_DIGITS, (digits) => placeholder("ID", digits)))
      .map((segment) => encodeURIComponent(segment).replace(/%3A/gi, ":"))
      .join("/");
    const query = new URLSearchParams();
    for (const [name, item] of parsed.searchParams) {
      query.append(name, SECRET_FIELD.test(name) ? placeholder("SECRET", item) : text(item));
    }
    parsed.search = query.toString();
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  };

  const headers = (input: Readonly<Record<string, string>>): Record<string, string> =>
    Object.fromEntries(
      Object.entries(input)
        .filter(([name]) => KEPT_HEADERS.test(name))
        .map(([name, item]) => [name.toLowerCase(), text(item)]),
    );

  const body = (sent: string): string => {
    try {
      return JSON.stringify(value(JSON.parse(sent)));
    } catch {
      // Not JSON: a form (OAuth token calls) has its secret fields replaced by name.
    }
    if (/^[^\s=&]+=[^\s]*$/.test(sent)) {
      const form = new URLSearchParams(sent);
      const out = new URLSearchParams();
      for (const [name, item] of form)
        out.append(name, SECRET_FIELD.test(name) ? placeholder("SECRET", item) : text(item));
      return out.toString();
    }
    return text(sent);
  };

  return { text, value, url, headers, body };
}
