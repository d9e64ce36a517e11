import { type DiscoveryDocument, discoveryDescription } from "../google/discovery";
import type { ApiDescription } from "../kit/description";
import searchconsoleV1 from "./discovery/searchconsole-v1.json";

/** The pinned discovery documents this connector's requests and answers are checked against (./discovery/README.md). */
export const description: ApiDescription = discoveryDescription([searchconsoleV1 as unknown as DiscoveryDocument]);
