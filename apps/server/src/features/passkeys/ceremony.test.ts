import { describe, expect, it } from "vitest";
import type { AppContext } from "../../context";
import { relyingParty } from "./ceremony";

const config = (appUrl: string) => ({ appUrl, siteTitle: "Reportz" }) as AppContext["config"];

describe("relyingParty: the passkeys' RP id and origin come from APP_URL", () => {
  it.each([
    ["https://reports.example.com", "reports.example.com", "https://reports.example.com"],
    ["https://reports.example.com/", "reports.example.com", "https://reports.example.com"],
    ["https://app.example.com:8443", "app.example.com", "https://app.example.com:8443"],
    ["http://localhost:3000", "localhost", "http://localhost:3000"],
    // Browsers refuse an IP address as an RP id: a loopback APP_URL is the same machine as localhost.
    ["http://127.0.0.1:4320", "localhost", "http://localhost:4320"],
    ["http://[::1]:3000", "localhost", "http://localhost:3000"],
    ["https://REPORTS.Example.com", "reports.example.com", "https://reports.example.com"],
  ])("%s → RP id %s, origin %s", (appUrl, id, origin) => {
    expect(relyingParty(config(appUrl))).toEqual({ id, origin, name: "Reportz" });
  });
});
