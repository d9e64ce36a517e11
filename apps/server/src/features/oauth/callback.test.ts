import { expect, it } from "vitest";
import { connectorWith } from "../../../test/connectors";
import { describeEachDb, type TestEnv } from "../../../test/harness";

const APP_URL = "http://localhost:3999";
/** Some OAuth connector of the registry (the first in catalogue order; its words are in the expectations below). */
const oauthConnector = connectorWith("oauth");
/** What a browser sends when a page (the popup, sent back by the provider) is loaded. */
const NAVIGATION = { "sec-fetch-mode": "navigate", "sec-fetch-dest": "document", accept: "text/html,*/*;q=0.8" };

/** The text a reader of the page sees: tags dropped, entities of quotes and ampersands decoded. */
function pageText(html: string): string {
  return html
    .replace(/<script[^>]*><\/script>/g, "")
    .replace(/<style>[^<]*<\/style>/g, "")
    .replace(/<title>[^<]*<\/title>/g, "")
    .replace(/<\/?a[^>]*>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/\s+/g, " ")
    .trim();
}

describeEachDb(
  "OAuth callback: unknown connectors and browsers without a session",
  (env: () => TestEnv) => {
    it("answers 404 for a connector that does not exist: JSON to API clients, a page to browsers", async () => {
      const owner = env().client();
      await owner.signUpAndPassIntro();
      for (const name of ["0", "no-such-connector", "demo"]) {
        const api = await owner.api("GET", `/api/oauth/${name}/callback?code=x&state=y`);
        expect(api.statusCode).toBe(404);
        expect(api.json()).toEqual({
          code: "not_found",
          message: `There is no connector called “${name}” that connects with OAuth, so nothing was connected.`,
        });

        const page = await owner.raw("GET", `/api/oauth/${name}/callback?code=x&state=y`, { headers: NAVIGATION });
        expect(page.statusCode).toBe(404);
        expect(page.headers["content-type"]).toContain("text/html");
        expect(pageText(page.body)).toBe(
          `Not found There is no connector called “${name}” that connects with OAuth, so nothing was connected.`,
        );
        // The result still reaches the window that opened the popup, which shows it and closes the popup.
        expect(page.body).toContain('<script src="/oauth-done.js"></script>');
        expect(page.body).toContain("&#34;ok&#34;:false");
      }
      // Without a session, too: which connectors exist is no secret, and the 404 says more than a 401.
      const stranger = env().client();
      expect((await stranger.raw("GET", "/api/oauth/0/callback")).statusCode).toBe(404);
    });

    it("a real OAuth connector still answers its popup page (here: not configured, said in words)", async () => {
      const owner = env().client();
      await owner.signUpAndPassIntro();
      const page = await owner.raw("GET", `/api/oauth/${oauthConnector.key}/callback?code=x&state=y`, {
        headers: NAVIGATION,
      });
      expect(page.statusCode).toBe(200);
      // Not configured on this test server: the popup says which settings are missing.
      expect(pageText(page.body)).toMatch(
        /^Not connected Google Analytics is not configured on this server \(set GOOGLE_/,
      );
    });

    it("opened at another host than APP_URL: the popup says in words where to open the product", async () => {
      // The session belongs to 127.0.0.1; the provider returns to APP_URL's host, where no cookie is sent.
      const browser = env().client();
      const page = await browser.raw("GET", `/api/oauth/${oauthConnector.key}/callback?code=abc&state=def`, {
        headers: { ...NAVIGATION, host: "localhost:3999" },
      });
      expect(page.statusCode).toBe(401);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.body).not.toContain('"code"');
      expect(pageText(page.body)).toBe(
        "Not connected You are not signed in at http://localhost:3999. If you opened Reportz at another address (such as 127.0.0.1 instead of localhost, or the reverse), your sign-in stayed there. Open Reportz at http://localhost:3999, sign in, and click Connect again.",
      );
      expect(page.body).toContain(`<a href="${APP_URL}">${APP_URL}</a>`);
      // No result is posted (the opener is of another origin) and the popup stays open to be read.
      expect(page.body).not.toContain("oauth-done.js");

      // Reached at an address that is not APP_URL's (the product opened at 127.0.0.1), it says so.
      const elsewhere = await browser.raw("GET", `/api/oauth/${oauthConnector.key}/callback?code=abc&state=def`, {
        headers: { ...NAVIGATION, host: "127.0.0.1:3999" },
      });
      expect(pageText(elsewhere.body)).toBe(
        "Not connected This window is at 127.0.0.1:3999, but Reportz is set up at http://localhost:3999, so your sign-in does not reach it. Open Reportz at http://localhost:3999, sign in, and click Connect again.",
      );

      // A browser without Sec-Fetch headers that asks for HTML gets the page as well.
      const older = await browser.raw("GET", `/api/oauth/${oauthConnector.key}/callback`, {
        headers: { accept: "text/html,application/xhtml+xml" },
      });
      expect(older.statusCode).toBe(401);
      expect(older.headers["content-type"]).toContain("text/html");
    });

    it("API clients without a session keep the JSON 401", async () => {
      const client = env().client();
      const clients: Array<Record<string, string>> = [
        { "x-requested-with": "XMLHttpRequest", accept: "application/json" },
        { "sec-fetch-mode": "cors", accept: "*/*" },
        {},
      ];
      for (const headers of clients) {
        const response = await client.raw("GET", `/api/oauth/${oauthConnector.key}/callback?code=abc&state=def`, {
          headers,
        });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ code: "unauthenticated", message: "Unauthenticated." });
      }
    });
  },
  { APP_URL },
);
