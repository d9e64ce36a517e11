import { CloseButton, Group, SegmentedControl, TextInput } from "@mantine/core";
import { IconSearch } from "../../../ui/icons";

export type DashboardStatus = "active" | "archived";

interface DashboardFiltersProps {
  search: string;
  onSearchChange: (search: string) => void;
  status: DashboardStatus;
  onStatusChange: (status: DashboardStatus) => void;
}

/** Search by name and the Active / Archived switch above the dashboards list. */
export function DashboardFilters({ search, onSearchChange, status, onStatusChange }: DashboardFiltersProps) {
  return (
    <Group justify="space-between" gap="sm" mb="lg" wrap="wrap">
      <TextInput
        aria-label="Search dashboards"
        placeholder="Search dashboards"
        type="search"
        value={search}
        onChange={(event) => onSearchChange(event.currentTarget.value)}
        leftSection={<IconSearch size={16} />}
        rightSection={
          search ? <CloseButton size="sm" aria-label="Clear search" onClick={() => onSearchChange("")} /> : null
        }
        w={{ base: "100%", xs: 320 }}
      />
      <SegmentedControl
        aria-label="Dashboard status"
        value={status}
        onChange={(value) => onStatusChange(value === "archived" ? "archived" : "active")}
        data={[
          { value: "active", label: "Active" },
          { value: "archived", label: "Archived" },
        ]}
        w={{ base: "100%", xs: "auto" }}
      />
    </Group>
  );
}
