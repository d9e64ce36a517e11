import { Group, Paper, Stack, Text } from "@mantine/core";
import type { PriceLines } from "../price";

function Line({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" c={strong ? undefined : "dimmed"} fw={strong ? 700 : undefined}>
        {label}
      </Text>
      <Text size={strong ? "md" : "sm"} fw={strong ? 700 : 600}>
        {value}
      </Text>
    </Group>
  );
}

/**
 * The live price of the chosen plan (livePrice): the list price of the count, what is taken off, the
 * total per interval, and what that makes one dashboard; lines that add up as the reader checks them.
 */
export function LivePrice({ price }: { price: PriceLines | null }) {
  if (!price) return null;
  return (
    <Paper withBorder p="sm" radius="md" aria-label="Price" role="group" data-testid="live-price">
      <Stack gap={4}>
        <Line label={price.listLabel} value={price.list} />
        {price.discount ? <Line label="Discount" value={`−${price.discount}`} /> : null}
        <Line label={`Total / ${price.per}`} value={price.total} strong />
        <Text size="xs" c="dimmed" ta="right">
          {`${price.unit} per dashboard / ${price.per}`}
        </Text>
      </Stack>
    </Paper>
  );
}
