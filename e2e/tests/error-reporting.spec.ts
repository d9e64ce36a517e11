import { expect, type Page, type Request, test } from "./fixtures";

/**
 * The browser half of error reporting, in Chromium. The test server runs without a DSN, so the page's
 * HTML is given one on its way (as a server with SENTRY_BROWSER_DSN would send it, connect-src included)
 * and Sentry's endpoint is answered by the test: what the page sends is what Sentry would receive.
 */
const INGEST = "http://127.0.0.1:9";
const DSN = `http://publickey@127.0.0.1:9/1`;

async function withDsn(page: Page) {
  await page.route(
    (url) => url.pathname.startsWith("/password/set/"),
    async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        '"errorReporting":null',
        JSON.stringify({ errorReporting: { dsn: DSN, sampleRate: 1, environment: "e2e" } }).slice(1, -1),
      );
      const headers = { ...response.headers() };
      delete headers["content-encoding"];
      delete headers["content-length"];
      headers["content-security-policy"] = headers["content-security-policy"].replace(
        "connect-src 'self' ws: wss:",
        `connect-src 'self' ws: wss: ${INGEST}`,
      );
      await route.fulfill({ response, body: html, headers });
    },
  );
}

function chunkRequests(page: Page): Request[] {
  const requests: Request[] = [];
  page.on("request", (request) => {
    if (/error-reporting-sentry/.test(request.url())) requests.push(request);
  });
  return requests;
}

test("without a DSN the page never loads Sentry", async ({ page }) => {
  const chunks = chunkRequests(page);
  await page.goto("/password/set/reset-token-123");
  await expect(page.locator("#root")).not.toBeEmpty();
  await page.waitForLoadState("networkidle");
  expect(chunks).toEqual([]);
});

test("with a DSN an uncaught error reaches Sentry's endpoint with its route pattern and no secret", async ({
  page,
}) => {
  const envelopes: string[] = [];
  await page.route(`${INGEST}/**`, async (route) => {
    envelopes.push(route.request().postData() ?? "");
    await route.fulfill({ status: 200, contentType: "application/json", body: "{}" });
  });
  await withDsn(page);
  const chunks = chunkRequests(page);
  await page.goto("/password/set/reset-token-123?email=olivia@example.com");
  await expect(page.locator("#root")).not.toBeEmpty();
  await expect.poll(() => chunks.length).toBe(1);
  await page.evaluate(() => {
    setTimeout(() => {
      throw new Error("could not save for olivia@example.com with token=reset-token-123");
    });
  });
  await expect.poll(() => envelopes.some((envelope) => envelope.includes('"type":"event"'))).toBe(true);
  const sent = envelopes.join("\n");
  expect(sent).toContain("could not save for [email]");
  expect(sent).toContain('"route":"/password/set/:token"');
  for (const secret of ["olivia@example.com", "reset-token-123"]) expect(sent).not.toContain(secret);
});
