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

/** The live price of the chosen plan (livePrice): unit price, discount and total per interval. */
export function LivePrice({ price }: { price: PriceLines | null }) {
  if (!price) return null;
  return (
    <Paper withBorder p="sm" radius="md" aria-label="Price" role="group" data-testid="live-price">
      <Stack gap={4}>
        <Line label={`Price per dashboard / ${price.per}`} value={price.unit} />
        {price.discount ? <Line label="Discount" value={`−${price.discount}`} /> : null}
        <Line label={`Total / ${price.per}`} value={price.total} strong />
      </Stack>
    </Paper>
  );
}
