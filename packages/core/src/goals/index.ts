export * from "./pace";
export * from "./period";
export * from "./sentence";
