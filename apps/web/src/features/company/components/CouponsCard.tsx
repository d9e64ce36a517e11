import { couponSummary, isCouponInList, type TCompany } from "@app/core";
import { Alert, Badge, Button, Card, Group, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import dayjs from "dayjs";
import { type FormEvent, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconAlert, IconCircleCheck } from "../../../ui/icons";
import { useApplyCoupon } from "../coupon-hooks";

type Banner = { kind: "success" | "error"; text: string } | null;

/**
 * The subscription page's coupons (docs/product.md §5, §8): apply a code, with the spec's banner on
 * success or refusal, and the list of codes the company has (the server's list decides).
 */
export function CouponsCard({ company }: { company: TCompany }) {
  const [code, setCode] = useState("");
  const [banner, setBanner] = useState<Banner>(null);
  const apply = useApplyCoupon();
  const appliedCodes = company.coupons.map((coupon) => coupon.code);
  // docs/product.md §5: apply is disabled while applying and for a code the company already has.
  const alreadyApplied = code.trim() !== "" && isCouponInList(appliedCodes, code);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim() || alreadyApplied) return;
    setBanner(null);
    apply.mutate(code.trim(), {
      onSuccess: (result) => {
        setBanner({ kind: "success", text: result.message });
        setCode("");
      },
      onError: (error) => setBanner({ kind: "error", text: fieldErrors(error)?.coupon ?? errorMessage(error) }),
    });
  };

  return (
    <Card mb="lg">
      <Stack gap="md">
        <div>
          <Title order={3}>Coupons</Title>
          <Text size="sm" c="dimmed">
            Codes lower your price or add dashboards to your plan.
          </Text>
        </div>
        {banner ? (
          <Alert
            color={banner.kind === "success" ? "teal" : "red"}
            icon={banner.kind === "success" ? <IconCircleCheck /> : <IconAlert />}
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setBanner(null)}
          >
            {banner.text}
          </Alert>
        ) : null}
        <form onSubmit={submit} noValidate>
          <Group align="flex-end" gap="sm" wrap="wrap">
            <TextInput
              label="Coupon code"
              placeholder="SPRING20"
              value={code}
              onChange={(event) => setCode(event.currentTarget.value)}
              error={alreadyApplied ? "This code is already applied." : undefined}
              style={{ flex: "1 1 220px" }}
              autoComplete="off"
            />
            <Button type="submit" loading={apply.isPending} disabled={!code.trim() || alreadyApplied}>
              Apply coupon
            </Button>
          </Group>
        </form>
        {company.coupons.length > 0 ? (
          <Table verticalSpacing="xs" aria-label="Applied coupons">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Code</Table.Th>
                <Table.Th>Gives</Table.Th>
                {/* The date is the first thing a phone can do without. */}
                <Table.Th visibleFrom="xs">Applied</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {company.coupons.map((coupon) => (
                <Table.Tr key={coupon.code}>
                  <Table.Td>
                    <Group gap={6} wrap="wrap">
                      <Badge variant="light" color="teal" tt="none" style={{ maxWidth: "100%" }}>
                        {coupon.code}
                      </Badge>
                      {coupon.name !== coupon.code ? (
                        <Text size="sm" c="dimmed">
                          {coupon.name}
                        </Text>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td>{couponSummary(coupon)}</Table.Td>
                  <Table.Td visibleFrom="xs">{dayjs(coupon.appliedAt).format("MMM DD, YYYY")}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            No coupons applied yet.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
