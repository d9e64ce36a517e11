import { Alert, Box, SimpleGrid, Skeleton } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useEffect, useState } from "react";
import { errorMessage } from "../../../lib/api";
import { IconAlert } from "../../../ui/icons";
import { useDashboardList } from "../hooks";
import { DashboardFilters, type DashboardStatus } from "./DashboardFilters";
import { DashboardGrid } from "./DashboardGrid";
import { DashboardsEmpty } from "./DashboardsEmpty";

/** Cards per page: fills three columns on a desktop and two on a tablet evenly. */
export const DASHBOARDS_PER_PAGE = 12;
const SEARCH_DEBOUNCE_MS = 300;

export interface DashboardBrowseState {
  search: string;
  status: DashboardStatus;
  page: number;
}

interface DashboardsBrowserProps {
  state: DashboardBrowseState;
  onStateChange: (state: DashboardBrowseState) => void;
}

function LoadingCards() {
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md" aria-busy="true" aria-label="Loading dashboards">
      {Array.from({ length: 6 }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity.
        <Skeleton key={index} h={96} radius="lg" />
      ))}
    </SimpleGrid>
  );
}

/** Search, Active/Archived, the cards and paging of the dashboards list; the state lives in the address. */
export function DashboardsBrowser({ state, onStateChange }: DashboardsBrowserProps) {
  const [searchInput, setSearchInput] = useState(state.search);
  const [debouncedSearch] = useDebouncedValue(searchInput.trim(), SEARCH_DEBOUNCE_MS);
  const list = useDashboardList({
    search: state.search,
    active: state.status === "active",
    page: state.page,
    perPage: DASHBOARDS_PER_PAGE,
  });

  useEffect(() => {
    if (debouncedSearch !== state.search) onStateChange({ ...state, search: debouncedSearch, page: 1 });
  }, [debouncedSearch, state, onStateChange]);

  // Deleting or archiving the last card of the last page leaves an empty page: step back to the new last one.
  const lastPage = list.data?.meta.lastPage;
  useEffect(() => {
    if (lastPage !== undefined && lastPage >= 1 && state.page > lastPage) onStateChange({ ...state, page: lastPage });
  }, [lastPage, state, onStateChange]);

  return (
    <Box>
      <DashboardFilters
        search={searchInput}
        onSearchChange={setSearchInput}
        status={state.status}
        onStatusChange={(status) => onStateChange({ ...state, status, page: 1 })}
      />
      {list.isError && !list.data ? (
        <Alert color="red" icon={<IconAlert />}>
          {errorMessage(list.error)}
        </Alert>
      ) : !list.data ? (
        <LoadingCards />
      ) : list.data.data.length === 0 ? (
        <DashboardsEmpty status={state.status} search={state.search} />
      ) : (
        <Box style={{ opacity: list.isPlaceholderData ? 0.6 : 1, transition: "opacity 120ms" }}>
          <DashboardGrid
            dashboards={list.data.data}
            meta={list.data.meta}
            onPageChange={(page) => onStateChange({ ...state, page })}
          />
        </Box>
      )}
    </Box>
  );
}
