export { AddDomainForm } from "./components/AddDomainForm";
export { CreateGroupForm } from "./components/CreateGroupForm";
export { DomainsTable } from "./components/DomainsTable";
export { GroupsList } from "./components/GroupsList";
export { useCampaign, useCampaigns } from "./hooks";
export { campaignKeys, campaignQuery, campaignsQuery } from "./queries";
