import fs from "node:fs";
import { extractMailchimpIndex, type MailchimpIndex } from "./sdk-index";

/**
 * Refreshes mailchimp/sdk-index.json from a checkout of Mailchimp's Node.js SDK (docs/connectors.md):
 * `npx tsx apps/server/src/connectors/mailchimp/sdk-index-refresh.ts …`.
 * A file of its own, never imported by the server: a command-line entry inside a module the server
 * bundles would run when the bundle starts (it did: the built server stopped at start with its usage).
 */
const [checkout, pinnedPath, url, retrieved] = process.argv.slice(2);
if (!checkout || !pinnedPath)
  throw new Error("usage: sdk-index-refresh.ts <sdk checkout> <sdk-index.json> [url] [date]");
const old = JSON.parse(fs.readFileSync(pinnedPath, "utf8")) as MailchimpIndex;
const endpoints = extractMailchimpIndex(checkout, Object.keys(old.endpoints));
const pinned = {
  url: url || old["x-pinned"].url,
  retrieved: retrieved || new Date().toISOString().slice(0, 10),
  release: old["x-pinned"].release,
};
fs.writeFileSync(pinnedPath, `${JSON.stringify({ "x-pinned": pinned, endpoints }, null, 2)}\n`);
