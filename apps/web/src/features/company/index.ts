export { AccountDangerZone } from "./components/AccountDangerZone";
export { CompanySettingsForm } from "./components/CompanySettingsForm";
export { DomainSettings } from "./components/DomainSettings";
export { SenderSettings } from "./components/SenderSettings";
export { useCompany } from "./hooks";
export { companyQuery } from "./queries";
