import { dashboardAllowance, dashboardsUsedText, type TCompany } from "@app/core";
import { Badge, Card, Group, Progress, SimpleGrid, Stack, Text } from "@mantine/core";
import dayjs from "dayjs";
import { BillingDetails, SubscriptionPlan } from "../features/billing";
import { CouponsCard } from "../features/company";
import { usePageData } from "../features/session/hooks";
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

/** What the date on the page means for the company's state. */
function dateLabel(company: TCompany): string {
  if (company.isTrialWithoutSubscription) return "Trial ends";
  if (company.isCanceled) return "Service ends";
  return company.hasSubscription ? "Next charge" : "Expires";
}

/**
 * /company/subscription (admins only, docs/product.md §4): the plan's facts, subscribing or changing
 * the plan with its live price, cancelling, the card, and the coupons. The page data's company follows
 * CompanySubscriptionUpdated, so everything here changes without a reload.
 */
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
              <Text fw={600}>{dashboardsUsedText(company.dashboardsCount, company.services)}</Text>
              <Progress
                value={Math.min(
                  100,
                  (company.dashboardsCount / Math.max(1, dashboardAllowance(company.services))) * 100,
                )}
                size="sm"
                aria-label="Dashboards used"
              />
            </Fact>
            <Fact label={dateLabel(company)}>
              <Text fw={600}>{company.expiresAt ? dayjs(company.expiresAt).format("MMM DD, YYYY") : "—"}</Text>
            </Fact>
          </SimpleGrid>
        </Card>
      ) : null}
      {company ? <SubscriptionPlan company={company} /> : null}
      {company ? <CouponsCard company={company} /> : null}
      {company ? <BillingDetails company={company} /> : null}
    </>
  );
}
