export * from "./english";
export * from "./pace";
export * from "./period";
export * from "./sentence";
export * from "./widget";
