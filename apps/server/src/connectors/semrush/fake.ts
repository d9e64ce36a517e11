import type { FastifyReply, FastifyRequest } from "fastify";
import type { FakeEntry } from "../../../test/fakes/app";
import { type FakeFault, type FakePart, takeFault } from "../../../test/fakes/app";

/**
 * SEMrush's Standard API (v3) as a part of the fakes app (./app.ts), answering in the shapes of:
 * - https://developer.semrush.com/api/v3/analytics/basic-docs/ (one GET dispatcher `/?type=…&key=…`;
 *   answers are `;`-separated CSV with a header row of column names; failures are HTTP 200 with a line
 *   `ERROR <code> :: <TEXT>`; the databases list),
 * - https://developer.semrush.com/api/v3/analytics/overview-reports/ (`domain_rank_history`: Rk, Or,
 *   Ot, Oc, Ad, At, Ac, Dt; `display_sort`, `display_offset`, `display_limit`),
 * - https://developer.semrush.com/api/v3/analytics/domain-reports/ (`domain_organic`: Ph, Po, Nq, Cp,
 *   Tr, Tc; `display_date=YYYYMM15` for a past month at 50 units a line instead of 10),
 * - https://developer.semrush.com/api/basics/api-units-balance/ (`/users/countapiunits.html?key=`
 *   answering the balance as "1,000"; ERROR 132 when the units are used up).
 * The key is checked as SEMrush does (the `key` query parameter): missing → ERROR 122, wrong → ERROR 120.
 * Unknown report types, databases or columns are refused with an ERROR line, and a domain SEMrush has
 * no data for answers ERROR 50 :: NOTHING FOUND.
 */

export const FAKE_SEMRUSH_KEY = "0123456789abcdef0123456789abcdef";

/** The fake's databases: a sample of SEMrush's (the connector's list is the documented one). */
const DATABASES = new Set(["us", "uk", "de", "fr", "mobile-us"]);

const HEADERS: Record<string, string> = {
  Rk: "Rank",
  Or: "Organic Keywords",
  Ot: "Organic Traffic",
  Oc: "Organic Cost",
  Ad: "Adwords Keywords",
  At: "Adwords Traffic",
  Ac: "Adwords Cost",
  Dt: "Date",
  Ph: "Keyword",
  Po: "Position",
  Nq: "Search Volume",
  Cp: "CPC",
  Tr: "Traffic (%)",
  Tc: "Traffic Cost (%)",
};
const HISTORY_COLUMNS = new Set(["Rk", "Or", "Ot", "Oc", "Ad", "At", "Ac", "Dt"]);
const ORGANIC_COLUMNS = new Set(["Ph", "Po", "Nq", "Cp", "Tr", "Tc"]);

export interface FakeSemrush {
  key: string;
  /** API units left; each line costs 10 (50 for a past month's keywords), as SEMrush counts. */
  units: number;
  /** Domains SEMrush has data for. */
  domains: Set<string>;
  /** Scripted answers for the next report call (status 200 with an ERROR line is SEMrush's usual failure). */
  failNext: FakeFault[];
}

const monthOf = (yyyymm: number) => ({ year: Math.floor(yyyymm / 12), month: (yyyymm % 12) + 1 });

/** The fake's monthly snapshot of a domain: numbers tests can recompute. `month` is year*12 + month-1. */
export function fakeSemrushSnapshot(database: string, month: number): Record<string, string> {
  const { year, month: m } = monthOf(month);
  const step = month - 2024 * 12;
  const boost = database === "us" ? 1 : 2;
  return {
    Rk: String(9000 - step * 10),
    Or: String((1200 + step * 15) * boost),
    Ot: String((5400 + step * 40) * boost),
    Oc: String((3210.5 + step * 2) * boost),
    Ad: String(30 + step),
    At: String(400 + step * 3),
    Ac: String(850 + step),
    Dt: `${year}${String(m).padStart(2, "0")}15`,
  };
}

const KEYWORDS = ["acme anvils", "buy anvil", "anvil price", "acme rocket skates", "giant magnet"];

/** The fake's organic keywords of a domain in a month (traffic share falls with the list's order). */
export function fakeSemrushKeywords(month: number): Record<string, string>[] {
  const shift = month % 5;
  return KEYWORDS.map((phrase, index) => ({
    Ph: phrase,
    Po: String(index + 1 + (shift % 2)),
    Nq: String(1000 * (5 - index) + shift * 10),
    Cp: (1.25 + index * 0.5).toFixed(2),
    Tr: (40 - index * 8 + shift / 10).toFixed(2),
    Tc: (35 - index * 6).toFixed(2),
  }));
}

const currentMonth = () => {
  const now = new Date();
  return now.getUTCFullYear() * 12 + now.getUTCMonth();
};

function send(reply: FastifyReply, text: string) {
  // SEMrush answers its reports and its errors alike: 200, text.
  return reply.code(200).header("content-type", "text/html; charset=UTF-8").send(text);
}

function csv(columns: string[], rows: Record<string, string>[]): string {
  return [columns.map((code) => HEADERS[code]).join(";"), ...rows.map((row) => columns.map((c) => row[c]).join(";"))]
    .join("\r\n")
    .concat("\r\n");
}

export function semrushFake(): FakePart<FakeSemrush> {
  const state: FakeSemrush = {
    key: FAKE_SEMRUSH_KEY,
    units: 1_000_000,
    domains: new Set(["acme.com", "www.acme.com"]),
    failNext: [],
  };

  const keyError = (key: string | undefined) => {
    if (!key) return "ERROR 122 :: WRONG FORMAT OR EMPTY KEY";
    if (key !== state.key) return "ERROR 120 :: WRONG KEY - ID PAIR";
    return null;
  };

  return {
    state,
    env: (origin) => ({ SEMRUSH_API_URL: `${origin}/semrush`, SEMRUSH_UNITS_URL: origin }),
    register(app) {
      app.get("/users/countapiunits.html", async (request: FastifyRequest, reply: FastifyReply) => {
        const query = request.query as Record<string, string | undefined>;
        const refused = keyError(query.key);
        if (refused) return send(reply, refused);
        return send(reply, state.units.toLocaleString("en-US"));
      });

      app.get("/semrush/", async (request: FastifyRequest, reply: FastifyReply) => {
        const query = request.query as Record<string, string | undefined>;
        const fault = takeFault(state.failNext, request.url);
        if (fault) {
          return reply
            .code(fault.status)
            .header("content-type", "text/html; charset=UTF-8")
            .send(typeof fault.body === "string" ? fault.body : JSON.stringify(fault.body));
        }
        const refused = keyError(query.key);
        if (refused) return send(reply, refused);
        const allowed =
          query.type === "domain_rank_history"
            ? HISTORY_COLUMNS
            : query.type === "domain_organic"
              ? ORGANIC_COLUMNS
              : null;
        if (!allowed) return send(reply, "ERROR 30 :: QUERY TYPE NOT FOUND");
        if (!query.domain) return send(reply, "ERROR 40 :: MANDATORY PARAMETER NOT SET");
        if (!query.database || !DATABASES.has(query.database)) return send(reply, "ERROR 30 :: DATABASE NOT FOUND");
        const columns = (query.export_columns ?? "").split(",").filter(Boolean);
        if (columns.length === 0 || columns.some((code) => !allowed.has(code))) {
          return send(reply, "ERROR 30 :: WRONG EXPORT COLUMNS");
        }
        if (!state.domains.has(query.domain)) return send(reply, "ERROR 50 :: NOTHING FOUND");
        const offset = Number(query.display_offset ?? 0);
        const limit = Number(query.display_limit ?? 10_000);

        let rows: Record<string, string>[];
        let pricePerLine = 10;
        if (query.type === "domain_rank_history") {
          const months = Array.from({ length: currentMonth() - 2024 * 12 + 1 }, (_, i) => 2024 * 12 + i);
          const sorted = query.display_sort === "dt_asc" ? months : months.reverse();
          rows = sorted.map((month) => fakeSemrushSnapshot(query.database as string, month));
        } else {
          let month = currentMonth();
          if (query.display_date) {
            const match = /^(\d{4})(\d{2})15$/.exec(query.display_date);
            if (!match) return send(reply, "ERROR 30 :: WRONG DATE FORMAT");
            month = Number(match[1]) * 12 + Number(match[2]) - 1;
            pricePerLine = 50;
          }
          rows = fakeSemrushKeywords(month);
          if (query.display_sort === "tr_desc") rows.sort((a, b) => Number(b.Tr) - Number(a.Tr));
        }
        rows = rows.slice(offset, offset + limit);
        if (rows.length === 0) return send(reply, "ERROR 50 :: NOTHING FOUND");
        if (state.units < rows.length * pricePerLine) return send(reply, "ERROR 132 :: API UNITS BALANCE IS ZERO");
        state.units -= rows.length * pricePerLine;
        return send(reply, csv(columns, rows));
      });
    },
  };
}

/** This fake as a part of the fakes app (test/fakes/all.ts finds it in this folder). */
export const fakeEntry: FakeEntry = {
  name: "semrush",
  build: () => semrushFake(),
};

/** The login the sources form would send for this fake (the live check's test connects with it). */
export const fakeLogin = (_origin: string) => ({ account: "acme.com", token: FAKE_SEMRUSH_KEY });
