import type { TCompany } from "@app/core";
import { Badge, Button, Card, Group, Stack, Text, TextInput, Title } from "@mantine/core";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { useUpdateCompany, useVerifyDomain } from "../hooks";
import { DnsRecordCard } from "./DnsRecordCard";

/**
 * White-label domain (docs/product.md §3 domainCname): the host clients open shared dashboards on, the
 * CNAME record to create for it, and Verify, which looks the record up. Until verified the domain
 * serves nothing; a new domain must be verified again.
 */
export function DomainSettings({ company }: { company: TCompany }) {
  const [domain, setDomain] = useState(company.domainCname ?? "");
  const [error, setError] = useState<string | null>(null);
  const save = useUpdateCompany();
  const verify = useVerifyDomain();
  const changed = domain.trim().toLowerCase() !== (company.domainCname ?? "");
  const record = company.domainRecord;

  const submit = () => {
    const form = new FormData();
    form.append("domain_cname", domain.trim());
    save.mutate(form, {
      onSuccess: () => setError(null),
      onError: (failure) => setError(fieldErrors(failure)?.domain_cname ?? errorMessage(failure)),
    });
  };

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <div>
            <Title order={3} size="h4">
              Dashboard domain
            </Title>
            <Text size="sm" c="dimmed">
              Your clients open shared dashboards on your own domain, with your logo, colours and site title.
            </Text>
          </div>
          {record ? (
            <Badge color={record.verified ? "teal" : "yellow"} variant="light" data-testid="domain-state">
              {record.verified ? "Verified" : "Not verified"}
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
              label="Custom domain"
              placeholder="reports.your-agency.com"
              value={domain}
              onChange={(event) => setDomain(event.currentTarget.value)}
              error={error}
              style={{ flex: "1 1 240px" }}
            />
            <Button type="submit" mt={25} disabled={!changed} loading={save.isPending}>
              Save domain
            </Button>
          </Group>
        </form>
        {record ? (
          <>
            <Text size="sm">Create this record at your domain's DNS host, then verify:</Text>
            <DnsRecordCard record={record} testId="domain-record" />
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
