/** The query keys this feature caches its server state under: public, for features that update that state. */
export { campaignKeys } from "./queries";
