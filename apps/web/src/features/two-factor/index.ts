export { CompanyTwoFactorCard } from "./components/CompanyTwoFactorCard";
export { ProfileTwoFactorLink } from "./components/ProfileTwoFactorLink";
export { SecondStepForm } from "./components/SecondStepForm";
export { TwoFactorSettings } from "./components/TwoFactorSettings";
