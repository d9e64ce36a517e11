import type { TAuthKind, TConnector } from "@app/core";

/** How each auth kind reads to a person (docs/product.md §3 catalogue). */
export const AUTH_KIND_LABELS: Record<TAuthKind, string> = {
  oauth2: "OAuth",
  "account+token": "Account + token",
  token: "Token",
  "site+key|secret": "Site URL + key|secret",
  none: "No login needed",
  upload: "Upload",
};

/** The catalogue name of a source's connector key, or the key itself for one no longer listed. */
export function connectorName(connectors: readonly TConnector[] | undefined, key: string): string {
  return connectors?.find((connector) => connector.key === key)?.displayName ?? key;
}

const SWATCHES = ["brand", "teal", "orange", "grape", "cyan", "pink", "lime", "indigo", "red", "yellow"] as const;

/** A stable colour per connector, so its tile looks the same in the catalogue and the connected list. */
export function connectorColour(key: string): (typeof SWATCHES)[number] {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return SWATCHES[hash % SWATCHES.length];
}

/** Two letters standing in for a connector's logo: 'Google Analytics' → 'GA', 'SEMrush' → 'SE'. */
export function connectorInitials(displayName: string): string {
  const words = displayName
    .replace(/\[.*?\]/g, "")
    .trim()
    .split(/[\s.]+/)
    .filter(Boolean);
  const letters = words.length > 1 ? words[0][0] + words[1][0] : displayName.slice(0, 2);
  return letters.toUpperCase();
}

/**
 * How each connected source is named on screen: its account when it has one, else the connector's
 * name, numbered when the company has several that would otherwise read the same.
 */
export function sourceLabels(
  sources: ReadonlyArray<{ id: string; name: string; account: string | null }>,
  connectors: readonly TConnector[] | undefined,
): Map<string, string> {
  const base = sources.map((source) => source.account || connectorName(connectors, source.name));
  const seen = new Map<string, number>();
  const labels = new Map<string, string>();
  sources.forEach((source, index) => {
    const label = base[index];
    const total = base.filter((other) => other === label).length;
    const position = (seen.get(label) ?? 0) + 1;
    seen.set(label, position);
    labels.set(source.id, total > 1 ? `${label} ${position}` : label);
  });
  return labels;
}

/**
 * A site typed without its scheme gets https:// (shops are only reached over HTTPS); an address with
 * a scheme is kept as typed, so the server can say plainly that http:// is refused.
 */
export function withScheme(site: string): string {
  const trimmed = site.trim();
  if (trimmed === "" || /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return trimmed;
  return `https://${trimmed}`;
}
