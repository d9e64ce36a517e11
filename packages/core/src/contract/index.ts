export * from "./auth";
export * from "./common";
export * from "./company";
export * from "./dashboard-actions";
export * from "./dashboards";
export * from "./page-data";
export * from "./sources";
export * from "./users";
