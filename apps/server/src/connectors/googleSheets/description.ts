import { type DiscoveryDocument, discoveryDescription } from "../google/discovery";
import type { ApiDescription } from "../kit/description";
import driveV3 from "./discovery/drive-v3.json";
import sheetsV4 from "./discovery/sheets-v4.json";

/** The pinned discovery documents this connector's requests and answers are checked against (./discovery/README.md). */
export const description: ApiDescription = discoveryDescription([
  sheetsV4 as unknown as DiscoveryDocument,
  driveV3 as unknown as DiscoveryDocument,
]);
