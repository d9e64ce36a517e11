export { AccountDangerZone } from "./components/AccountDangerZone";
export { CompanySettingsForm } from "./components/CompanySettingsForm";
export { useCompany } from "./hooks";
export { companyQuery } from "./queries";
