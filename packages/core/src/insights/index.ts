export * from "./contribution";
export * from "./kind";
export * from "./lag";
export * from "./notability";
export * from "./rank";
export * from "./sentence";
export * from "./widget";
