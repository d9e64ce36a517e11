import { dashboardAllowance, type TCompany } from "@app/core";
import { Badge, Card, Group, Progress, SimpleGrid, Stack, Text } from "@mantine/core";
import dayjs from "dayjs";
import { usePageData } from "../features/session/hooks";
import { ComingSoon } from "../ui/ComingSoon";
import { IconCreditCard } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

function status(company: TCompany): { label: string; color: string } {
  if (company.isCanceled) return { label: "Canceled", color: "red" };
  if (company.isOverdue) return { label: "Overdue", color: "orange" };
  if (company.isTrialWithoutSubscription) return { label: "Trial", color: "brand" };
  if (company.hasSubscription) return { label: "Active", color: "teal" };
  return { label: "No subscription", color: "gray" };
}

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: 0.5 }}>
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** /company/subscription (admins only): today's plan facts from the page data; plan changes come later. */
export default function CompanySubscriptionScreen() {
  const { company } = usePageData();
  return (
    <>
      <PageHeader title="Subscription" description="Your plan, its dashboards and its renewal." />
      {company ? (
        <Card mb="lg">
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xl">
            <Fact label="Status">
              <Group gap="xs">
                <Badge size="lg" color={status(company).color}>
                  {status(company).label}
                </Badge>
                {company.subscription ? (
                  <Text size="sm" c="dimmed">
                    {company.subscription.interval === 12 ? "Billed annually" : "Billed monthly"}
                  </Text>
                ) : null}
              </Group>
            </Fact>
            <Fact label="Dashboards">
              <Text fw={600}>
                {company.dashboardsCount} of {dashboardAllowance(company.services)} used
              </Text>
              <Progress
                value={Math.min(
                  100,
                  (company.dashboardsCount / Math.max(1, dashboardAllowance(company.services))) * 100,
                )}
                size="sm"
                aria-label="Dashboards used"
              />
            </Fact>
            <Fact label={company.isTrialWithoutSubscription ? "Trial ends" : "Renews or expires"}>
              <Text fw={600}>{company.expiresAt ? dayjs(company.expiresAt).format("MMM DD, YYYY") : "—"}</Text>
            </Fact>
          </SimpleGrid>
        </Card>
      ) : null}
      <ComingSoon icon={<IconCreditCard size={26} />}>
        Here you will choose a plan, change the number of dashboards, switch between monthly and annual billing, apply
        coupons and manage your card.
      </ComingSoon>
    </>
  );
}
