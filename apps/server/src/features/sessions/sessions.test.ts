import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOwner } from "../../../test/factories";
import { describeEachDb, type TestClient, type TestEnv } from "../../../test/harness";
import { cityRecord, writeMmdb } from "../../../test/mmdb";
import { buildApp } from "../../app";
import { type App, SESSION_COOKIE } from "../../infra/http";
import { sha256 } from "../../infra/security";
import { geoPlaces } from "./geoip";

const CHROME_WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const BERLIN = "203.0.113.40";
const LYON = "198.51.100.7";

/** A GeoLite2-City-shaped database with two networks, written where the test's server reads it. */
function geoDatabase(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-geoip-"));
  const file = path.join(dir, "GeoLite2-City.mmdb");
  fs.writeFileSync(
    file,
    writeMmdb([
      { network: "203.0.113.0/24", record: cityRecord("Berlin", "Germany", "DE") },
      { network: "198.51.100.0/24", record: cityRecord("Lyon", "France", "FR") },
    ]),
  );
  return file;
}

interface Listed {
  id: string;
  browser: string | null;
  system: string | null;
  place: string | null;
  firstSeenAt: string;
  lastSeenAt: string;
  current: boolean;
}

/**
 * Signs in as a browser would from `address` (through the trusted proxy of the suite, which names the
 * visitor in X-Forwarded-For), then loads the app's page data: the session's first request.
 */
async function signInFrom(env: TestEnv, email: string, password: string, userAgent: string, address: string) {
  const client = env.client();
  const headers = { "user-agent": userAgent, "x-forwarded-for": address, "x-requested-with": "XMLHttpRequest" };
  expect((await client.raw("POST", "/login", { body: { email, password }, headers })).statusCode).toBe(200);
  const page = await client.raw("GET", "/api/page-data", { headers });
  expect(page.json().user.email).toBe(email);
  client.identification = page.json().identification;
  return client;
}

async function listOf(client: TestClient): Promise<Listed[]> {
  const response = await client.api("GET", "/api/user/sessions");
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

async function signedIn(client: TestClient): Promise<boolean> {
  return (await client.api("GET", "/api/company")).statusCode === 200;
}

describeEachDb(
  "signed-in sessions, with a GeoIP database behind a trusted proxy",
  (env) => {
    it("lists the user's sessions with browser, system and place, this one marked, never the token's hash", async () => {
      const { email, password } = await buildOwner(env());
      const laptop = await signInFrom(env(), email, password, CHROME_WINDOWS, BERLIN);
      const phone = await signInFrom(env(), email, password, SAFARI_IPHONE, LYON);
      const sessions = await listOf(laptop);
      const mine = sessions.find((each) => each.current);
      expect(mine).toMatchObject({ browser: "Chrome 131", system: "Windows", place: "Berlin, Germany" });
      expect(sessions.find((each) => each.browser === "Safari 17")).toMatchObject({
        system: "iOS 17.5",
        place: "Lyon, France",
        current: false,
      });
      // The owner's test-client session: no browser in its user agent, a loopback address: no place.
      expect(sessions.filter((each) => each.browser === null && each.place === null)).toHaveLength(1);
      expect(sessions).toHaveLength(3);
      expect(sessions.filter((each) => each.current)).toHaveLength(1);
      for (const each of sessions) {
        expect(Date.parse(each.firstSeenAt)).toBeLessThanOrEqual(Date.parse(each.lastSeenAt));
        for (const client of [laptop, phone]) expect(each.id).not.toBe(sha256(client.cookie(SESSION_COOKIE) ?? ""));
      }
      // The phone sees the same sessions, itself marked.
      expect((await listOf(phone)).find((each) => each.current)?.place).toBe("Lyon, France");
    });

    it("ends one other session: its cookie is refused at once, the others stay; another user's id is a 404", async () => {
      const { email, password } = await buildOwner(env());
      const laptop = await signInFrom(env(), email, password, CHROME_WINDOWS, BERLIN);
      const phone = await signInFrom(env(), email, password, SAFARI_IPHONE, LYON);
      const stranger = await buildOwner(env());
      const strangers = await listOf(stranger.client);
      const phoneId = (await listOf(phone)).find((each) => each.current)?.id as string;

      // Another user's session, from another company: not found, and still signed in.
      const foreign = await laptop.api("DELETE", `/api/user/sessions/${strangers[0].id}`);
      expect(foreign.statusCode).toBe(404);
      expect(await signedIn(stranger.client)).toBe(true);
      expect((await laptop.api("DELETE", "/api/user/sessions/no-such-session")).statusCode).toBe(404);
      // Nor may the stranger end the phone's.
      expect((await stranger.client.api("DELETE", `/api/user/sessions/${phoneId}`)).statusCode).toBe(404);

      // The phone is cached by this process (it just made requests); ending it forgets that at once.
      expect(await signedIn(phone)).toBe(true);
      expect((await laptop.api("DELETE", `/api/user/sessions/${phoneId}`)).statusCode).toBe(204);
      expect(await signedIn(phone)).toBe(false);
      expect(await signedIn(laptop)).toBe(true);
      expect((await listOf(laptop)).map((each) => each.id)).not.toContain(phoneId);
      expect((await laptop.api("DELETE", `/api/user/sessions/${phoneId}`)).statusCode).toBe(404);
    });

    it("signs out all other sessions and keeps the current one", async () => {
      const { client: owner, email, password } = await buildOwner(env());
      const laptop = await signInFrom(env(), email, password, CHROME_WINDOWS, BERLIN);
      const phone = await signInFrom(env(), email, password, SAFARI_IPHONE, LYON);
      const tablet = await signInFrom(env(), email, password, FIREFOX_LINUX, BERLIN);
      const colleague = await signInFrom(env(), (await buildOwner(env())).email, "secret-pass-1", FIREFOX_LINUX, LYON);

      const ended = await laptop.api("POST", "/api/user/sessions/end-others", {});
      expect(ended.statusCode).toBe(200);
      expect(ended.json().data).toEqual({ ended: 3 });
      for (const client of [owner, phone, tablet]) expect(await signedIn(client)).toBe(false);
      expect(await signedIn(laptop)).toBe(true);
      expect(await signedIn(colleague)).toBe(true);
      const left = await listOf(laptop);
      expect(left).toHaveLength(1);
      expect(left[0]).toMatchObject({ current: true, browser: "Chrome 131" });
    });

    it("an ended session is refused at once by a second process sharing the database and event bus", async () => {
      const { email, password } = await buildOwner(env());
      const laptop = await signInFrom(env(), email, password, CHROME_WINDOWS, BERLIN);
      const phone = await signInFrom(env(), email, password, SAFARI_IPHONE, LYON);
      const other: App = await buildApp(env().ctx, { webDist: path.join(env().dataDir, "no-web-dist") });
      try {
        await other.ready();
        const onOther = () =>
          other.inject({
            method: "GET",
            url: "/api/company",
            headers: { cookie: `${SESSION_COOKIE}=${phone.cookie(SESSION_COOKIE)}` },
          });
        // The other process has resolved (and cached) the phone's session.
        expect((await onOther()).statusCode).toBe(200);
        const phoneId = (await listOf(phone)).find((each) => each.current)?.id as string;
        expect((await laptop.api("DELETE", `/api/user/sessions/${phoneId}`)).statusCode).toBe(204);
        expect((await onOther()).statusCode).toBe(401);
      } finally {
        await other.close();
      }
    });

    it("a new password still ends the other sessions, and the list shows only this one", async () => {
      const { email, password, user } = await buildOwner(env());
      const laptop = await signInFrom(env(), email, password, CHROME_WINDOWS, BERLIN);
      const phone = await signInFrom(env(), email, password, SAFARI_IPHONE, LYON);
      expect((await laptop.api("PUT", `/api/users/${user.id}`, { password: "a-new-secret-1" })).statusCode).toBe(200);
      expect(await signedIn(phone)).toBe(false);
      expect((await listOf(laptop)).map((each) => each.current)).toEqual([true]);
    });

    it("answers 401 without a session", async () => {
      const anonymous = env().client();
      await anonymous.pageData();
      expect((await anonymous.api("GET", "/api/user/sessions")).statusCode).toBe(401);
      expect((await anonymous.api("POST", "/api/user/sessions/end-others", {})).statusCode).toBe(401);
    });
  },
  () => Promise.resolve({ GEOIP_DATABASE: geoDatabase(), TRUST_PROXY: "127.0.0.1" }),
);

describeEachDb("signed-in sessions without a GeoIP database", (env) => {
  it("lists browser and system but no place", async () => {
    const { email, password } = await buildOwner(env());
    const laptop = await signInFrom(env(), email, password, CHROME_WINDOWS, BERLIN);
    const mine = (await listOf(laptop)).find((each) => each.current);
    expect(mine).toMatchObject({ browser: "Chrome 131", system: "Windows", place: null });
  });
});

describeEachDb(
  "signed-in sessions with a GeoIP database but no trusted proxy",
  (env) => {
    it("ignores a forwarded address the app does not trust: the socket's address has no place", async () => {
      const { email, password } = await buildOwner(env());
      const laptop = await signInFrom(env(), email, password, CHROME_WINDOWS, BERLIN);
      expect((await listOf(laptop)).find((each) => each.current)).toMatchObject({ browser: "Chrome 131", place: null });
    });
  },
  () => Promise.resolve({ GEOIP_DATABASE: geoDatabase() }),
);

describe("GeoIP database", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "reportz-geoip-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A logger whose lines the test reads. */
  function capturingLogger() {
    const lines: { level: number; msg: string; file?: string }[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    return { logger: pino({ level: "info" }, stream), lines };
  }

  it("a missing or corrupt file is a warning at start and no place, never an error", async () => {
    const corrupt = path.join(dir, "corrupt.mmdb");
    fs.writeFileSync(corrupt, Buffer.from("not a MaxMind database at all".repeat(20)));
    for (const file of [path.join(dir, "missing.mmdb"), corrupt]) {
      const { logger, lines } = capturingLogger();
      const places = geoPlaces(file, logger);
      expect(await places.placeOf(BERLIN)).toBeNull();
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 40, file });
      expect(lines[0].msg).toContain("GEOIP_DATABASE");
    }
  });

  it("places IPv4 addresses, also as dual-stack sockets report them, and nothing for unknown ones", async () => {
    const file = path.join(dir, "City.mmdb");
    fs.writeFileSync(file, writeMmdb([{ network: "203.0.113.0/24", record: cityRecord("Berlin", "Germany", "DE") }]));
    const { logger, lines } = capturingLogger();
    const places = geoPlaces(file, logger);
    expect(await places.placeOf(BERLIN)).toBe("Berlin, Germany");
    expect(await places.placeOf(`::ffff:${BERLIN}`)).toBe("Berlin, Germany");
    expect(await places.placeOf("127.0.0.1")).toBeNull();
    expect(await places.placeOf("2001:db8::1")).toBeNull();
    expect(await places.placeOf("not an address")).toBeNull();
    expect(await places.placeOf(null)).toBeNull();
    expect(lines).toHaveLength(0);
  });

  it("no setting: no places and no warning", async () => {
    const { logger, lines } = capturingLogger();
    expect(await geoPlaces(null, logger).placeOf(BERLIN)).toBeNull();
    expect(lines).toHaveLength(0);
  });
});
