/** The query keys this feature caches its server state under: public, for features that update that state (realtime). */
export { pageDataKey } from "./page-data";
