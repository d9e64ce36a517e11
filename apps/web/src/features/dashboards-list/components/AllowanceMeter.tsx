import { dashboardAllowance, type TCompany } from "@app/core";
import { Group, Progress, Stack, Text, Tooltip } from "@mantine/core";

/** docs/product.md §9: how many of the company's dashboards (plan plus bonus) are in use. */
export function AllowanceMeter({ company }: { company: TCompany }) {
  const allowance = dashboardAllowance(company.services);
  const used = company.dashboardsCount;
  const percent = allowance > 0 ? Math.min(100, (used / allowance) * 100) : 100;
  const full = used >= allowance;
  const bonus = company.services.bonusDashboards;
  const detail =
    bonus > 0
      ? `${company.services.dashboards} in your plan + ${bonus} bonus. Archived dashboards do not count.`
      : "Archived dashboards do not count.";

  return (
    <Tooltip label={detail} multiline w={240}>
      <Stack gap={4} miw={168}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed">
            Dashboards used
          </Text>
          <Text size="xs" fw={600} c={full ? "red.7" : undefined}>
            {used} / {allowance}
          </Text>
        </Group>
        <Progress
          value={percent}
          size="sm"
          aria-label="Dashboards used"
          color={full ? "red" : percent >= 80 ? "yellow" : "brand"}
        />
      </Stack>
    </Tooltip>
  );
}
