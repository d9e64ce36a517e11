import { describe, expect, it, vi } from "vitest";
import { ApiError, errorMessage, fieldErrors } from "./api";

describe("error bodies", () => {
  it("a 422's first message per field, or its message as `general`", () => {
    const body = { message: "The given data was invalid.", errors: { name: ["Required.", "Too short."], email: [] } };
    expect(fieldErrors(new ApiError(422, body))).toEqual({ name: "Required." });
    expect(fieldErrors(new ApiError(422, { message: "Nope.", errors: {} }))).toEqual({ general: "Nope." });
    expect(fieldErrors(new ApiError(422, { message: "Nope." }))).toEqual({ general: "Nope." });
  });

  it("anything not shaped like a 422 body gives no field errors", () => {
    expect(fieldErrors(new ApiError(422, "text"))).toBeNull();
    expect(fieldErrors(new ApiError(422, { errors: { name: "Required." } }))).toBeNull();
    expect(fieldErrors(new ApiError(422, { errors: [] }))).toBeNull();
    expect(fieldErrors(new ApiError(400, { message: "Bad." }))).toBeNull();
    expect(fieldErrors(new Error("x"))).toBeNull();
  });

  it("messages come from the body when it has one", () => {
    expect(new ApiError(400, { code: "bad_request", message: "Bad." }).message).toBe("Bad.");
    expect(new ApiError(400, { code: "bad_request", message: 3 }).message).toBe("Request failed with status 400");
    expect(errorMessage(new ApiError(403, { code: "forbidden", message: "Admins only." }))).toBe("Admins only.");
    expect(errorMessage(new ApiError(403, null))).toBe("You are not allowed to do this.");
  });
});

describe("the realtime socket header", () => {
  it("goes with every call while the page's socket is subscribed, and not after", async () => {
    const { call } = await import("./api");
    const { setRealtimeSocketId } = await import("./socket-id");
    const sent: Headers[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string, init: RequestInit) => {
        sent.push(new Headers(init.headers));
        return new Response("{}", { headers: { "content-type": "application/json" } });
      }),
    );
    try {
      setRealtimeSocketId("sock-1");
      await call("sourceCreate", { body: { name: "demo" } });
      setRealtimeSocketId(null);
      await call("sourcesList");
    } finally {
      vi.unstubAllGlobals();
    }
    expect(sent.map((headers) => headers.get("x-socket-id"))).toEqual(["sock-1", null]);
  });
});
