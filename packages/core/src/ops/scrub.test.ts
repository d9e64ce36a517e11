import { describe, expect, it } from "vitest";
import { scrubErrorEvent, scrubText } from "./scrub";

const SECRETS = [
  "session-cookie-value",
  "Bearer-abc",
  "hunter2-password",
  "olivia@example.com",
  "reset-token-123",
  "pg-secret",
  "request-body-field",
  "identification-value",
];

describe("scrubErrorEvent", () => {
  it("keeps no cookie, authorisation, password, token, e-mail address or request body", () => {
    const event = {
      event_id: "abc",
      message: "Login failed for olivia@example.com via postgres://app:pg-secret@db:5432/reportz",
      tags: { route: "/api/sources/:id", method: "DELETE" },
      transaction: "DELETE /api/sources/:id",
      request: {
        method: "POST",
        url: "https://app.example.com/api/password/set?token=reset-token-123",
        headers: {
          Cookie: "reportz_session=session-cookie-value",
          authorization: "Bearer Bearer-abc",
          "x-authorization": "hunter2-password",
          "x-identification": "identification-value",
          "user-agent": "Mozilla/5.0",
        },
        cookies: { reportz_session: "session-cookie-value" },
        data: { password: "hunter2-password", note: "request-body-field" },
        query_string: "token=reset-token-123",
      },
      user: { id: "u1", email: "olivia@example.com", ip_address: "10.1.2.3" },
      breadcrumbs: [{ message: "fetch https://x/?password=hunter2-password" }],
      extra: { password: "hunter2-password", nested: { apiKey: "pg-secret", list: ["olivia@example.com"] } },
      exception: {
        values: [
          {
            type: "Error",
            value: "duplicate key (email)=(olivia@example.com); Authorization: Bearer Bearer-abc-long-value",
            stacktrace: { frames: [{ filename: "/app/src/a.ts", lineno: 3, function: "save" }] },
          },
        ],
      },
    };
    const scrubbed = scrubErrorEvent(event);
    const text = JSON.stringify(scrubbed);
    for (const secret of SECRETS) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/@example\.com/);
    expect(scrubbed.request).toEqual({
      method: "POST",
      url: "https://app.example.com/api/password/set",
      headers: { "user-agent": "Mozilla/5.0" },
    });
    expect(scrubbed.user).toEqual({ id: "u1" });
    expect(scrubbed.breadcrumbs).toBeUndefined();
    // What makes the event useful survives.
    expect(scrubbed.tags).toEqual({ route: "/api/sources/:id", method: "DELETE" });
    expect(scrubbed.transaction).toBe("DELETE /api/sources/:id");
    expect(scrubbed.exception.values[0].type).toBe("Error");
    expect(scrubbed.exception.values[0].stacktrace.frames[0]).toEqual({
      filename: "/app/src/a.ts",
      lineno: 3,
      function: "save",
    });
    expect(scrubbed.message).toBe("Login failed for [email] via postgres://[Filtered]@db:5432/reportz");
  });

  it.each([
    ["a@b.co wrote", "[email] wrote"],
    ["GET /x?check=1&token=abc&b=2", "GET /x?check=1&token=[Filtered]&b=2"],
    ["redis://:p4ss@cache:6379", "redis://[Filtered]@cache:6379"],
    ["Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [Filtered]"],
    ["failed with token=abc123 and password=x", "failed with token=[Filtered] and password=[Filtered]"],
    ["nothing to hide", "nothing to hide"],
  ])("scrubText(%j) = %j", (input, output) => {
    expect(scrubText(input)).toBe(output);
  });
});
