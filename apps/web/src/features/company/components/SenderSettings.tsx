import type { TCompany } from "@app/core";
import { Badge, Button, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { useSetSenderAddress, useVerifySender } from "../hooks";
import { DnsRecordCard } from "./DnsRecordCard";

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
                <DnsRecordCard key={record.host} record={record} />
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
