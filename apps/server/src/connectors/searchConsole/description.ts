import { type DiscoveryDocument, discoveryDescription } from "../google/discovery";
import type { ApiDescription } from "../kit/description";
import searchconsoleV1 from "./discovery/searchconsole-v1.json";

/**
 * The pinned discovery document this connector's requests and answers are checked against
 * (./discovery/README.md). Search Console's current document describes the very paths the connector
 * calls (`webmasters/v3/sites…`) but spells its enums in capitals (`DATE`, `BY_PROPERTY`, `SITE_OWNER`),
 * while Webmasters v3's own pages and answers spell them `date`, `byProperty`, `siteOwner` (its last
 * document, of 2019, calls them case-insensitive and lists none): enums are read case-insensitively.
 */
export const description: ApiDescription = discoveryDescription([searchconsoleV1 as unknown as DiscoveryDocument], {
  looseEnums: true,
});
