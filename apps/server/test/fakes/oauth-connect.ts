import { expect } from "vitest";
import type { TestClient } from "../harness";

/**
 * What the sources page's popup does, without a browser: start, let the provider (a fake on 127.0.0.1)
 * answer its consent screen, follow its redirect back to our callback as the signed-in user, and read
 * the result the callback page hands to the opener.
 */
export async function connectOAuth(client: TestClient, connector: string, body: Record<string, unknown> = {}) {
  const started = await client.api("POST", `/api/oauth/${connector}/start`, body);
  expect(started.statusCode).toBe(200);
  const consent = new URL(started.json().data.url);
  const answer = await fetch(consent, { redirect: "manual" });
  expect(answer.status).toBe(302);
  const back = new URL(answer.headers.get("location") ?? "");
  const page = await client.raw("GET", `${back.pathname}${back.search}`);
  expect(page.statusCode).toBe(200);
  expect(page.headers["content-type"]).toContain("text/html");
  const result = JSON.parse(
    (/data-result="([^"]*)"/.exec(page.body)?.[1] ?? "null").replace(/&#(\d+);/g, (_m, code) =>
      String.fromCharCode(Number(code)),
    ),
  );
  return { consent, back, page, result };
}
