import {
  formatMoney,
  intervalLabel,
  ORDER_STATUS_LABELS,
  orderDay,
  orderPeriod,
  type TOrder,
  type TOrderStatus,
} from "@app/core";
import { Badge, Button, Card, EmptyState, Group, Stack, Table, Text, VisuallyHidden } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { Link } from "react-router";
import { errorMessage } from "../../../lib/api";
import { IconDownload, IconReceipt } from "../../../ui/icons";
import { useDownloadInvoice } from "../invoices-hooks";

const STATUS_COLOR: Record<TOrderStatus, string> = { paid: "teal", failed: "red", refunded: "gray" };

function StatusBadge({ status }: { status: TOrderStatus }) {
  return (
    <Badge color={STATUS_COLOR[status]} variant="light">
      {ORDER_STATUS_LABELS[status]}
    </Badge>
  );
}

function DownloadButton({ order }: { order: TOrder }) {
  const download = useDownloadInvoice();
  return (
    <Button
      variant="light"
      size="xs"
      leftSection={<IconDownload size={14} />}
      loading={download.isPending && download.variables?.id === order.id}
      aria-label={`Download PDF of ${order.number}`}
      onClick={() =>
        download.mutate(order, {
          onError: (error) =>
            notifications.show({ color: "red", title: "Could not download", message: errorMessage(error) }),
        })
      }
    >
      Download PDF
    </Button>
  );
}

const plan = (order: TOrder) => `${order.dashboards} · ${intervalLabel(order.interval).toLowerCase()}`;

/** Phones: one card per invoice, every fact labelled, the download button full width. */
function InvoiceCards({ orders }: { orders: TOrder[] }) {
  return (
    <Stack gap="sm" hiddenFrom="sm">
      {orders.map((order) => (
        <Card key={order.id} component="article" aria-label={`Invoice ${order.number}`}>
          <Group justify="space-between" wrap="nowrap" mb={6}>
            <Text fw={600}>{order.number}</Text>
            <StatusBadge status={order.status} />
          </Group>
          <Text size="sm" c="dimmed">
            {orderDay(order.date)}
          </Text>
          <Text size="sm">Period: {orderPeriod(order.periodStart, order.periodEnd) || "—"}</Text>
          <Text size="sm">Dashboards: {plan(order)}</Text>
          <Group justify="space-between" mt="sm">
            <Text fw={600}>{formatMoney(order.amountCents, order.currency)}</Text>
            <DownloadButton order={order} />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

function InvoiceTable({ orders }: { orders: TOrder[] }) {
  return (
    <Card p={0} visibleFrom="sm">
      <Table.ScrollContainer minWidth={720}>
        <Table highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Period</Table.Th>
              <Table.Th>Dashboards</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>
                <VisuallyHidden>PDF</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {orders.map((order) => (
              <Table.Tr key={order.id}>
                <Table.Td fw={500}>{order.number}</Table.Td>
                <Table.Td>{orderDay(order.date)}</Table.Td>
                <Table.Td>{orderPeriod(order.periodStart, order.periodEnd) || "—"}</Table.Td>
                <Table.Td>{plan(order)}</Table.Td>
                <Table.Td ta="right">{formatMoney(order.amountCents, order.currency)}</Table.Td>
                <Table.Td>
                  <StatusBadge status={order.status} />
                </Table.Td>
                <Table.Td ta="right">
                  <DownloadButton order={order} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}

/** The company's invoices (docs/decisions.md, "Invoices"): a table on wide screens, cards on phones; none yet says why. */
export function InvoicesList({ orders }: { orders: TOrder[] }) {
  if (orders.length === 0) {
    return (
      <Card py={48}>
        <EmptyState
          variant="light"
          icon={<IconReceipt size={26} />}
          title="No invoices yet"
          description={
            <>
              Each payment of your subscription adds an invoice here.{" "}
              <Link to="/company/subscription">Choose a plan</Link> to subscribe.
            </>
          }
        />
      </Card>
    );
  }
  return (
    <>
      <InvoiceTable orders={orders} />
      <InvoiceCards orders={orders} />
    </>
  );
}
