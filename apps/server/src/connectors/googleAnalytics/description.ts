import { type DiscoveryDocument, discoveryDescription } from "../google/discovery";
import type { ApiDescription } from "../kit/description";
import analyticsadminV1beta from "./discovery/analyticsadmin-v1beta.json";
import analyticsdataV1beta from "./discovery/analyticsdata-v1beta.json";

/** The pinned discovery documents this connector's requests and answers are checked against (./discovery/README.md). */
export const description: ApiDescription = discoveryDescription([
  analyticsdataV1beta as unknown as DiscoveryDocument,
  analyticsadminV1beta as unknown as DiscoveryDocument,
]);
