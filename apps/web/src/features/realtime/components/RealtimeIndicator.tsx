import { Group, Text } from "@mantine/core";
import { useRealtimeStatus } from "../status";

const DOT_COLOR = {
  live: "var(--mantine-color-teal-6)",
  connecting: "var(--mantine-color-yellow-6)",
  offline: "var(--mantine-color-gray-5)",
  off: "var(--mantine-color-gray-5)",
} as const;

function clock(time: number): string {
  return new Date(time).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

/**
 * The realtime view's line under its header: whether the page hears its company's channel (and when
 * the last change arrived), or, for a public viewer, that it refreshes on a clock.
 */
export function RealtimeIndicator({ polling }: { polling: boolean }) {
  const { state, lastEventAt } = useRealtimeStatus();
  const shown = polling ? "off" : state;
  const label = polling
    ? "Realtime view · refreshes every minute"
    : state === "live"
      ? `Live${lastEventAt ? ` · last change ${clock(lastEventAt)}` : ""}`
      : state === "offline"
        ? "Offline · changes are not being received"
        : "Connecting…";
  return (
    <Group gap={8} mb="md" role="status" aria-live="polite" data-realtime={polling ? "polling" : state}>
      <span
        aria-hidden="true"
        style={{ width: 8, height: 8, borderRadius: "50%", background: DOT_COLOR[shown], flexShrink: 0 }}
      />
      <Text fz="sm" className="dash-muted">
        {label}
      </Text>
    </Group>
  );
}
