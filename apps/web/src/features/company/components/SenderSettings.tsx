import type { TCompany } from "@app/core";
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from "@mantine/core";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconCheck, IconCopy } from "../../../ui/icons";
import { useSetSenderAddress, useVerifySender } from "../hooks";

/**
 * White-label sender (docs/product.md §3): the address reports come from, the DNS records to add at the
 * domain's DNS host, and Verify, which looks them up. Until verified, mail comes from the product's
 * no-reply address.
 */
export function SenderSettings({ company }: { company: TCompany }) {
  const [address, setAddress] = useState(company.fromAddress ?? "");
  const [error, setError] = useState<string | null>(null);
  const save = useSetSenderAddress();
  const verify = useVerifySender();
  const changed = address.trim() !== (company.fromAddress ?? "");

  const submit = () =>
    save.mutate(address.trim() === "" ? null : address.trim(), {
      onSuccess: () => setError(null),
      onError: (failure) => setError(fieldErrors(failure)?.address ?? errorMessage(failure)),
    });

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={3} size="h4">
              Sender e-mail
            </Title>
            <Text size="sm" c="dimmed">
              Automatic reports come from this address once its domain is verified; until then from our no-reply
              address.
            </Text>
          </div>
          {company.fromAddress ? (
            <Badge color={company.verifiedWhitelabel ? "teal" : "yellow"} variant="light" data-testid="sender-state">
              {company.verifiedWhitelabel ? "Verified" : "Not verified"}
            </Badge>
          ) : null}
        </Group>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label="Sender address"
              placeholder="reports@your-agency.com"
              value={address}
              onChange={(event) => setAddress(event.currentTarget.value)}
              error={error}
              style={{ flex: "1 1 240px" }}
            />
            <Button type="submit" mt={25} disabled={!changed} loading={save.isPending}>
              Save address
            </Button>
          </Group>
        </form>
        {company.emailDns.length > 0 ? (
          <>
            <Text size="sm">Add these records at your domain's DNS host, then verify:</Text>
            {/* One block per record (not a table): the long DKIM value gets the card's whole width on a phone. */}
            <Stack gap="sm" data-testid="sender-records">
              {company.emailDns.map((record) => (
                <Stack
                  key={record.host}
                  gap={4}
                  p="sm"
                  style={{ border: "1px solid var(--mantine-color-gray-3)", borderRadius: 8 }}
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
              ))}
            </Stack>
            <Group>
              <Button variant="default" onClick={() => verify.mutate()} loading={verify.isPending}>
                Verify
              </Button>
              {verify.isError ? (
                <Text size="sm" c="red.8">
                  {errorMessage(verify.error)}
                </Text>
              ) : null}
            </Group>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}
