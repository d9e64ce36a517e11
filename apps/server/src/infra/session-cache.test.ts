import { describe, expect, it } from "vitest";
import { createSessionCache } from "./session-cache";

describe("session cache", () => {
  it("serves what was set in the current generation", () => {
    const cache = createSessionCache<{ user: string }>();
    cache.set("t", { user: "a" }, cache.generation());
    expect(cache.get("t")).toEqual({ user: "a" });
  });

  it.each([
    ["a logout", (c: ReturnType<typeof createSessionCache>) => c.delete("other")],
    ["an account change", (c: ReturnType<typeof createSessionCache>) => c.clear()],
  ])("refuses a value read from the database before %s (no stale write-back)", (_label, change) => {
    const cache = createSessionCache<{ user: string }>();
    const readAt = cache.generation();
    change(cache as ReturnType<typeof createSessionCache>);
    cache.set("t", { user: "stale" }, readAt);
    expect(cache.get("t")).toBeUndefined();
  });

  it("drops everything on clear", () => {
    const cache = createSessionCache<{ user: string }>();
    cache.set("t", { user: "a" }, cache.generation());
    cache.clear();
    expect(cache.get("t")).toBeUndefined();
  });
});
