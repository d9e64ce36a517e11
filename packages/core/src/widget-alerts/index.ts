export * from "./clock";
export * from "./contract";
export * from "./evaluate";
export * from "./metrics";
