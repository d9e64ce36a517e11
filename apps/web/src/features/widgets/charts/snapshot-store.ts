import { chartDrawingKeyText } from "@app/core";
import { SNAPSHOT_CACHE_PREFIX } from "../../../lib/kept-snapshots";
import type { ChartInput } from "./chart-common";
import type { ChartSize } from "./chart-svg";

/**
 * Snapshots kept by this browser, so a member opening a dashboard again (a reload, the next visit) draws
 * its charts from what the worker drew last time instead of drawing them anew: the worker draws one
 * chart after another, ~20–30 ms each, so the owner's 16 charts kept the last card busy ~0.3–0.4 s after
 * the data was in (bench/README.md (b); docs/decisions.md, "The owner's dashboard: drawn snapshots
 * kept").
 *
 * - **Keyed by everything the drawing depends on**: the chart's input (its data, widget, colours, locale,
 *   targets) and size, hashed (SHA-256), in a cache named after this module's own built file, whose name
 *   carries a hash of its content and so of the worker's file name (and with it the drawing code): a new
 *   release draws anew, and the caches of older releases are deleted when this one is first opened.
 * - **Nothing is learnt from a hit**: a key is made from the very data the member already has, so a
 *   snapshot is found only by someone holding its numbers. Signing out deletes them all the same
 *   (`forgetSnapshots` in lib/kept-snapshots.ts, from auth/api.ts), and at most `MAX_KEPT` are kept, the oldest dropped first.
 * - The browser's Cache Storage, not sessionStorage: a storage area is read whole, synchronously, on a
 *   page's first access to it (an identification set early in every load pays for it), and the SVGs of a
 *   dashboard are hundreds of kilobytes. Cache look-ups are asynchronous and made side by side.
 * - Off where the browser has no Cache Storage or no `crypto.subtle` (not a secure context), and in
 *   development, where this module's address does not change with the code.
 */
const PREFIX = SNAPSHOT_CACHE_PREFIX;
const MAX_KEPT = 400;
const enabled =
  !import.meta.env.DEV &&
  typeof caches !== "undefined" &&
  typeof crypto !== "undefined" &&
  typeof crypto.subtle?.digest === "function" &&
  typeof location !== "undefined";

let opened: Promise<Cache | null> | null = null;

function store(): Promise<Cache | null> {
  opened ??= (async () => {
    const name = PREFIX + import.meta.url;
    // Other releases' drawings are never found again.
    void caches
      .keys()
      .then((names) =>
        Promise.all(names.filter((old) => old.startsWith(PREFIX) && old !== name).map((old) => caches.delete(old))),
      )
      .catch(() => undefined);
    return caches.open(name);
  })().catch(() => null);
  return opened;
}

/** The address a snapshot is kept under, or null when snapshots are not kept here. */
export async function snapshotKey(input: ChartInput, size: ChartSize): Promise<string | null> {
  if (!enabled) return null;
  try {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(chartDrawingKeyText(input, size)));
    const hex = Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
    return `${location.origin}/chart-snapshot/${hex}`;
  } catch {
    return null;
  }
}

/** The SVG kept under `key`, or null. */
export async function keptSnapshot(key: string | null): Promise<string | null> {
  if (!key) return null;
  try {
    const cache = await store();
    const found = await cache?.match(key);
    return found ? await found.text() : null;
  } catch {
    return null;
  }
}

let trimming = false;

/** Keeps the worker's SVG under `key` (in the background; a failure only means it is drawn again). */
export function keepSnapshot(key: string | null, svg: string): void {
  if (!key) return;
  void (async () => {
    const cache = await store();
    if (!cache) return;
    await cache.put(key, new Response(svg, { headers: { "content-type": "image/svg+xml" } }));
    if (trimming) return;
    trimming = true;
    try {
      // Oldest first: the keys come in the order they were put.
      const keys = await cache.keys();
      await Promise.all(keys.slice(0, Math.max(0, keys.length - MAX_KEPT)).map((old) => cache.delete(old)));
    } finally {
      trimming = false;
    }
  })().catch(() => undefined);
}
