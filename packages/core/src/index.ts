export * from "./billing/company-flags";
export * from "./billing/messages";
export * from "./contract";
export * from "./forms/filled";
export * from "./forms/number-input";
export * from "./routing/guards";
export * from "./routing/routes";
export * from "./routing/title";
