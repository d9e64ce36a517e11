export { AddDomainForm } from "./components/AddDomainForm";
export { AlertSettingsModal } from "./components/AlertSettingsModal";
export { CreateGroupForm } from "./components/CreateGroupForm";
export { DomainsTable } from "./components/DomainsTable";
export { GroupActions } from "./components/GroupActions";
export { GroupsList } from "./components/GroupsList";
export { useCampaign, useCampaigns } from "./hooks";
export { campaignKeys, campaignQuery, campaignsQuery } from "./queries";
