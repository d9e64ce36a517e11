export * from "./auth";
export * from "./common";
export * from "./company";
export * from "./page-data";
export * from "./users";
