import { type DiscoveryDocument, discoveryDescription } from "../google/discovery";
import type { ApiDescription } from "../kit/description";
import businessprofileperformanceV1 from "./discovery/businessprofileperformance-v1.json";
import mybusinessaccountmanagementV1 from "./discovery/mybusinessaccountmanagement-v1.json";
import mybusinessbusinessinformationV1 from "./discovery/mybusinessbusinessinformation-v1.json";

/** The pinned discovery documents this connector's requests and answers are checked against (./discovery/README.md). */
export const description: ApiDescription = discoveryDescription([
  mybusinessaccountmanagementV1 as unknown as DiscoveryDocument,
  mybusinessbusinessinformationV1 as unknown as DiscoveryDocument,
  businessprofileperformanceV1 as unknown as DiscoveryDocument,
]);
