import { ActionIcon, Badge, Code, CopyButton, Group, Stack, Text, Tooltip } from "@mantine/core";
import { IconCheck, IconCopy } from "../../../ui/icons";

export interface DnsRecordView {
  type: string;
  host: string;
  value: string;
  verified: boolean;
  problem?: string | null;
}

/**
 * One DNS record to create at the customer's DNS host (sender records, the custom domain's CNAME): type
 * and host, whether the last Verify found it, the value with a copy button, and why it was not found.
 * A block rather than a table row, so a long value (a DKIM key) gets the card's whole width on a phone.
 */
export function DnsRecordCard({ record, testId }: { record: DnsRecordView; testId?: string }) {
  return (
    <Stack
      gap={4}
      p="sm"
      style={{ border: "1px solid var(--mantine-color-gray-3)", borderRadius: 8 }}
      data-testid={testId}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Text size="sm" fw={500} style={{ overflowWrap: "anywhere", minWidth: 0 }}>
          <Code mr={6}>{record.type}</Code>
          {record.host}
        </Text>
        <Badge color={record.verified ? "teal" : "gray"} variant="light" style={{ flexShrink: 0 }}>
          {record.verified ? "Found" : "Not found"}
        </Badge>
      </Group>
      <Group gap={4} wrap="nowrap" align="flex-start">
        <Code block style={{ whiteSpace: "pre-wrap", wordBreak: "break-all", flex: 1, minWidth: 0 }}>
          {record.value}
        </Code>
        <CopyButton value={record.value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? "Copied" : "Copy value"}>
              <ActionIcon
                variant="subtle"
                onClick={copy}
                aria-label={`Copy the ${record.type} value for ${record.host}`}
              >
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
      {record.problem ? (
        <Text size="xs" c="red.8">
          {record.problem}
        </Text>
      ) : null}
    </Stack>
  );
}
