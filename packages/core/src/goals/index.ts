export * from "./english";
export * from "./pace";
export * from "./period";
export * from "./removed";
export * from "./sentence";
export * from "./widget";
