import { describe, expect, it } from "vitest";
import { ApiError } from "../../lib/api";
import { mayGoThrough } from "./client";

describe("a failed channel authorisation or subscription", () => {
  it.each([
    ["the server unreachable (fetch failed)", new TypeError("Failed to fetch"), true],
    ["no answer to the subscription in time", new Error("operation has timed out"), true],
    ["a subscription the server refused", new Error("invalid signature"), true],
    ["a 500", new ApiError(500, null), true],
    ["a 503", new ApiError(503, { message: "Service unavailable." }), true],
    ["a 408", new ApiError(408, null), true],
    ["a 429", new ApiError(429, null), true],
    ["a 401: the page reloads into the sign-in page", new ApiError(401, null), false],
    ["a 419: the page reloads into the sign-in page", new ApiError(419, null), false],
    ["a 588: the page reloads", new ApiError(588, null), false],
    ["a 403: not this user's channel", new ApiError(403, null), false],
    ["a 422: the same next time", new ApiError(422, null), false],
  ])("%s is tried again: %s", (_what, error, expected) => {
    expect(mayGoThrough(error)).toBe(expected);
  });
});
