import { AUDIT_ACTIONS, AUDIT_GROUPS, type AuditGroup, type TAuditEvent } from "@app/core";
import { Alert, Badge, Button, Card, Group, Pagination, Select, Stack, Table, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { PageLoader } from "../../../ui/AppLoader";
import { IconDownload } from "../../../ui/icons";
import { useUsers } from "../../users";
import type { AuditFilters } from "../api";
import { useAuditLog, useDownloadAuditCsv } from "../hooks";

const GROUP_COLOR: Record<AuditGroup, string> = {
  "sign-ins": "gray",
  security: "red",
  members: "violet",
  sources: "teal",
  dashboards: "blue",
  reports: "cyan",
  billing: "orange",
  company: "grape",
};

/** The filter's choices: each group ("All sharing changes"), then each action in plain words. */
const ACTION_OPTIONS = [
  { group: "Groups", items: Object.entries(AUDIT_GROUPS).map(([value, label]) => ({ value, label: `All: ${label}` })) },
  {
    group: "One action",
    items: Object.entries(AUDIT_ACTIONS).map(([value, entry]) => ({
      value,
      label: entry.words.charAt(0).toUpperCase() + entry.words.slice(1),
    })),
  },
];

/** "Nov 29, 2026, 14:05" in the company's zone. */
function timeIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-US", {
    timeZone,
    dateStyle: "medium",
    timeStyle: "short",
    hourCycle: "h23",
  }).format(new Date(iso));
}

const who = (event: TAuditEvent) => event.actor?.name ?? "System";

function GroupBadge({ event }: { event: TAuditEvent }) {
  const group = event.group as AuditGroup;
  return (
    <Badge variant="light" color={GROUP_COLOR[group] ?? "gray"}>
      {AUDIT_GROUPS[group] ?? group}
    </Badge>
  );
}

function EventTable({ events, timeZone }: { events: TAuditEvent[]; timeZone: string }) {
  return (
    <Table.ScrollContainer minWidth={760} visibleFrom="sm">
      <Table striped highlightOnHover verticalSpacing="sm" aria-label="Audit log">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Time</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>Area</Table.Th>
            <Table.Th>Address</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{timeIn(event.at, timeZone)}</Table.Td>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {who(event)}
                </Text>
                {event.actor && (
                  <Text size="xs" c="dimmed">
                    {event.actor.email}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{event.description}</Table.Td>
              <Table.Td>
                <GroupBadge event={event} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" title={event.userAgent ?? undefined}>
                  {event.ip ?? "—"}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones: one card per event, every fact labelled. */
function EventCards({ events, timeZone }: { events: TAuditEvent[]; timeZone: string }) {
  return (
    <Stack gap="sm" hiddenFrom="sm">
      {events.map((event) => (
        <Card key={event.id} component="article" aria-label={`${who(event)} ${event.description}`}>
          <Group justify="space-between" wrap="nowrap" mb={6}>
            <Text fw={600} size="sm">
              {who(event)}
            </Text>
            <GroupBadge event={event} />
          </Group>
          <Text size="sm">{event.description}</Text>
          <Text size="xs" c="dimmed" mt={6}>
            {timeIn(event.at, timeZone)} · {event.ip ?? "no address"}
          </Text>
        </Card>
      ))}
    </Stack>
  );
}

/**
 * The company audit log (admins): filters (area or action, member, days), the events newest first in the
 * company's time zone, pages, and the filtered log as CSV.
 */
export function AuditLog() {
  const [filters, setFilters] = useState<AuditFilters>({ page: 1 });
  const log = useAuditLog(filters);
  const users = useUsers();
  const download = useDownloadAuditCsv();
  const errors = fieldErrors(log.error) ?? {};
  const set = (patch: Partial<AuditFilters>) => setFilters((current) => ({ ...current, ...patch, page: 1 }));
  const { page: _page, ...csvFilters } = filters;

  return (
    <Stack gap="md">
      <Card>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label="What"
            placeholder="Everything"
            data={ACTION_OPTIONS}
            value={filters.action ?? null}
            onChange={(value) => set({ action: value ?? undefined })}
            clearable
            searchable
            error={errors.action}
            w={{ base: "100%", sm: 260 }}
          />
          <Select
            label="Who"
            placeholder="Anyone"
            data={(users.data ?? []).map((user) => ({ value: user.id, label: user.name }))}
            value={filters.actor ?? null}
            onChange={(value) => set({ actor: value ?? undefined })}
            clearable
            error={errors.actor}
            w={{ base: "100%", sm: 200 }}
          />
          <TextInput
            type="date"
            label="From"
            value={filters.from ?? ""}
            onChange={(event) => set({ from: event.currentTarget.value || undefined })}
            error={errors.from}
            w={{ base: "100%", xs: 160 }}
          />
          <TextInput
            type="date"
            label="To"
            value={filters.to ?? ""}
            onChange={(event) => set({ to: event.currentTarget.value || undefined })}
            error={errors.to}
            w={{ base: "100%", xs: 160 }}
          />
          <Button
            variant="light"
            leftSection={<IconDownload size={16} />}
            loading={download.isPending}
            onClick={() =>
              download.mutate(csvFilters, {
                onError: (error) =>
                  notifications.show({ color: "red", title: "Could not export", message: errorMessage(error) }),
              })
            }
          >
            Export CSV
          </Button>
        </Group>
      </Card>
      {log.data ? (
        log.data.data.length === 0 ? (
          <Text c="dimmed">Nothing recorded for these filters.</Text>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {log.data.meta.total} {log.data.meta.total === 1 ? "event" : "events"} · times in {log.data.meta.timezone}
            </Text>
            <EventTable events={log.data.data} timeZone={log.data.meta.timezone} />
            <EventCards events={log.data.data} timeZone={log.data.meta.timezone} />
            {log.data.meta.lastPage > 1 && (
              <Pagination
                total={log.data.meta.lastPage}
                value={filters.page}
                onChange={(page) => setFilters((current) => ({ ...current, page }))}
              />
            )}
          </>
        )
      ) : log.isPending ? (
        <PageLoader />
      ) : Object.keys(errors).length === 0 ? (
        <Alert color="red">{errorMessage(log.error)}</Alert>
      ) : null}
    </Stack>
  );
}
