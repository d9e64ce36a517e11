import { Alert, Stack } from "@mantine/core";
import {
  AccountDangerZone,
  CompanySettingsForm,
  DomainSettings,
  SenderSettings,
  useCompany,
} from "../features/company";
import { CompanyTwoFactorCard } from "../features/two-factor";
import { errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { PageHeader } from "../ui/PageHeader";

/** /company/settings (admins only) */
export default function CompanySettingsScreen() {
  const { data: company, error, isPending } = useCompany();
  return (
    <>
      <PageHeader title="Company Settings" description="Your company profile, white label and account." />
      {company ? (
        <Stack gap="lg">
          <CompanySettingsForm key={company.id} company={company} />
          <SenderSettings key={`sender-${company.id}`} company={company} />
          <DomainSettings key={`domain-${company.id}`} company={company} />
          <CompanyTwoFactorCard />
          <AccountDangerZone company={company} />
        </Stack>
      ) : isPending ? (
        <PageLoader />
      ) : (
        <Alert color="red">{errorMessage(error)}</Alert>
      )}
    </>
  );
}
