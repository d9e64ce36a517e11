import Bowser from "bowser";

/** What the sessions list says about a browser: its name and major version, and its system. */
export interface DeviceLabel {
  browser: string | null;
  system: string | null;
}

// These systems' user agents carry a frozen version (macOS says 10.15.7 since 2020, Windows 11 says
// NT 10.0), so a version would mislead: the name alone.
const FROZEN_VERSIONS = new Set(["macOS", "Windows", "Linux", "Chrome OS"]);

/** Parses a User-Agent header (bowser); null parts where it names nothing recognisable. */
export function describeUserAgent(userAgent: string | null): DeviceLabel {
  if (!userAgent?.trim()) return { browser: null, system: null };
  const parsed = Bowser.parse(userAgent);
  const browserName = parsed.browser.name || null;
  const systemName = parsed.os.name || null;
  return {
    browser: browserName ? withVersion(browserName, parsed.browser.version, 1) : null,
    system: systemName && !FROZEN_VERSIONS.has(systemName) ? withVersion(systemName, parsed.os.version, 2) : systemName,
  };
}

/** "Chrome 131" (one part of the version), "iOS 17.5" (two). */
function withVersion(name: string, version: string | undefined, parts: number): string {
  const shown = (version ?? "")
    .split(".")
    .slice(0, parts)
    .filter((part) => /^\d+$/.test(part))
    .join(".");
  return shown ? `${name} ${shown}` : name;
}
