import fs from "node:fs";
import { LRUCache } from "lru-cache";
import maxmind, { type CityResponse, type Reader } from "maxmind";
import type { Logger } from "pino";

/** A coarse place ("Berlin, Germany") for a client address, from the operator's GeoIP database. */
export interface PlaceLookup {
  placeOf(address: string | null): Promise<string | null>;
}

const NO_PLACES: PlaceLookup = { placeOf: async () => null };

/**
 * Opens the MaxMind City database of GEOIP_DATABASE once, at start (docs/operations.md, "Places of
 * signed-in sessions"): no setting, no places and no error; a missing or unreadable file is a warning at
 * start and no places, never a failed request. Answers are kept per address, since the same few
 * addresses come back on every listing.
 */
export function geoPlaces(file: string | null, logger: Logger): PlaceLookup {
  if (!file) return NO_PLACES;
  const opening: Promise<Reader<CityResponse> | null> = openDatabase(file).catch((error: unknown) => {
    logger.warn(
      { err: error, file },
      "GEOIP_DATABASE could not be read as a MaxMind database: signed-in sessions are listed without places",
    );
    return null;
  });
  const places = new LRUCache<string, { place: string | null }>({ max: 10_000 });
  return {
    async placeOf(address) {
      const reader = await opening;
      if (!reader || !address) return null;
      const ip = plainAddress(address);
      const known = places.get(ip);
      if (known) return known.place;
      const place = placeName(reader, ip);
      places.set(ip, { place });
      return place;
    },
  };
}

async function openDatabase(file: string): Promise<Reader<CityResponse>> {
  // maxmind.open reads the whole file; a missing one is reported by its own error, clearer than a stat.
  await fs.promises.access(file, fs.constants.R_OK);
  return maxmind.open<CityResponse>(file);
}

/** An IPv4 address as a dual-stack socket reports it (::ffff:203.0.113.9) is looked up as IPv4. */
function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address;
}

function placeName(reader: Reader<CityResponse>, ip: string): string | null {
  if (!maxmind.validate(ip)) return null;
  let found: CityResponse | null;
  try {
    found = reader.get(ip);
  } catch {
    // An IPv6 address asked of an IPv4-only database, say: no place rather than a failed listing.
    return null;
  }
  const city = found?.city?.names?.en;
  const country = found?.country?.names?.en ?? found?.registered_country?.names?.en;
  return [city, country].filter(Boolean).join(", ") || null;
}
