import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./api";
import { prepareBrowserEvent, routePattern } from "./error-event";
import { reportError, reportFailure, resetErrorReporting, shouldReport, startErrorReporting } from "./error-reporting";

const SETTINGS = { dsn: "https://key@o1.ingest.example.com/2", sampleRate: 0.2, environment: "production" };

afterEach(resetErrorReporting);

describe("which failures are reported (docs/product.md §8: PDF errors other than 429, source deletions other than 404)", () => {
  it.each([
    ["dashboard.pdf", new ApiError(500, {}), true],
    ["dashboard.pdf", new ApiError(504, {}), true],
    ["dashboard.pdf", new ApiError(429, {}), false],
    ["dashboard.pdf", new TypeError("Failed to fetch"), true],
    ["source.delete", new ApiError(404, {}), false],
    ["source.delete", new ApiError(500, {}), true],
    ["source.delete", new ApiError(429, {}), true],
    ["source.delete", new DOMException("aborted", "AbortError"), false],
  ] as const)("%s failing with %o: %s", (action, error, reported) => {
    expect(shouldReport(action, error)).toBe(reported);
  });
});

describe("startErrorReporting", () => {
  it("without a DSN loads nothing and sends nothing", async () => {
    const load = vi.fn();
    await startErrorReporting(null, load);
    reportError(new Error("lost"));
    expect(load).not.toHaveBeenCalled();
  });

  it("with a DSN loads the SDK once and sends what was reported while it loaded", async () => {
    const send = vi.fn();
    const init = vi.fn(() => send);
    let finish: () => void = () => {};
    const loaded = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const load = vi.fn(async () => {
      await loaded;
      return { initErrorReporting: init };
    });
    const started = startErrorReporting(SETTINGS, load);
    const early = new Error("before the SDK arrived");
    reportFailure("source.delete", new ApiError(404, {}));
    reportError(early, { screen: "crash" });
    finish();
    await started;
    await startErrorReporting(SETTINGS, load);
    const late = new ApiError(500, {});
    reportFailure("source.delete", late);
    expect(load).toHaveBeenCalledTimes(1);
    expect(init).toHaveBeenCalledWith(SETTINGS);
    expect(send.mock.calls).toEqual([
      [early, { screen: "crash" }],
      [late, { action: "source.delete" }],
    ]);
  });
});

describe("browser events", () => {
  it("carry the route's pattern instead of the address, and no secret", () => {
    const event = prepareBrowserEvent(
      {
        message: "failed for olivia@example.com",
        request: {
          url: "https://app.example.com/password/set/reset-token-123?email=olivia@example.com",
          headers: { Referer: "https://app.example.com/dashboards/secret-permalink", "User-Agent": "Mozilla/5.0" },
        },
        user: { id: "u1", email: "olivia@example.com" },
        breadcrumbs: [{ category: "fetch", data: { url: "/api/dashboards/secret-permalink" } }],
      },
      "/password/set/reset-token-123",
    );
    const text = JSON.stringify(event);
    for (const secret of ["reset-token-123", "olivia@example.com", "secret-permalink"])
      expect(text).not.toContain(secret);
    expect(event.request).toEqual({ url: "/password/set/:token", headers: { "User-Agent": "Mozilla/5.0" } });
    expect((event as { tags?: unknown }).tags).toEqual({ route: "/password/set/:token" });
  });

  it.each([
    ["/dashboards/abc123", "/dashboards/:permalink"],
    ["/company/sources", "/company/sources"],
    ["/no/such/page", "(unmatched)"],
  ])("%s is reported as %s", (pathname, pattern) => {
    expect(routePattern(pathname)).toBe(pattern);
  });
});
