import type { TDashboardListItem, TPageMeta } from "@app/core";
import { Group, Pagination, SimpleGrid, Text } from "@mantine/core";
import { DashboardCard } from "./DashboardCard";

const CONTROL_LABELS = { first: "First page", previous: "Previous page", next: "Next page", last: "Last page" };

interface DashboardGridProps {
  dashboards: TDashboardListItem[];
  meta: TPageMeta;
  onPageChange: (page: number) => void;
}

/** A page of dashboard cards with the pager below it. */
export function DashboardGrid({ dashboards, meta, onPageChange }: DashboardGridProps) {
  const first = (meta.currentPage - 1) * meta.perPage + 1;
  const last = first + dashboards.length - 1;
  return (
    <>
      {/* Three columns only from lg: beside the navbar, md's three were too narrow for a card's details. */}
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 3 }} spacing="md">
        {dashboards.map((dashboard) => (
          <DashboardCard key={dashboard.id} dashboard={dashboard} />
        ))}
      </SimpleGrid>
      {meta.lastPage > 1 || meta.total > dashboards.length ? (
        <Group justify="space-between" mt="xl" gap="sm">
          <Text size="sm" c="dimmed">
            {first}–{last} of {meta.total}
          </Text>
          <Pagination
            total={meta.lastPage}
            value={meta.currentPage}
            onChange={onPageChange}
            size="sm"
            getControlProps={(control) => ({ "aria-label": CONTROL_LABELS[control] })}
            getItemProps={(page) => ({ "aria-label": `Page ${page}` })}
          />
        </Group>
      ) : null}
    </>
  );
}
