import { COUNTRY_CODES, countryName, EU_COUNTRIES, type TCompany, ZBillingDetailsUpdate } from "@app/core";
import { Alert, Card, Group, Select, SimpleGrid, Stack, Text, Textarea, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useMemo, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { zodFieldErrors } from "../../../lib/form-errors";
import { FeedbackButton, useFeedback } from "../../../ui/FeedbackButton";
import { IconAlert } from "../../../ui/icons";
import { useSaveBillingDetails } from "../../company/hooks";

interface Values {
  name: string;
  address: string;
  postal_code: string;
  city: string;
  country: string;
  vat_id: string;
}

const valuesOf = ({ billingDetails: d }: TCompany): Values => ({
  name: d.name ?? "",
  address: d.address ?? "",
  postal_code: d.postalCode ?? "",
  city: d.city ?? "",
  country: d.country ?? "",
  vat_id: d.vatId ?? "",
});

/**
 * The subscription page's "Billing details" (admins): what the company's invoices are made out to,
 * checked here with the contract's own rules (core `checkVatId` for the VAT number) before the server
 * checks them again and tells the card provider.
 */
export function BillingDetails({ company }: { company: TCompany }) {
  const [values, setValues] = useState<Values>(() => valuesOf(company));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { feedback, flash } = useFeedback();
  const mutation = useSaveBillingDetails();
  const countries = useMemo(
    () =>
      COUNTRY_CODES.map((code) => ({ value: code, label: countryName(code) })).sort((a, b) =>
        a.label.localeCompare(b.label),
      ),
    [],
  );
  const eu = (EU_COUNTRIES as readonly string[]).includes(values.country);

  const set = (field: keyof Values) => (value: string) => setValues((current) => ({ ...current, [field]: value }));
  const fromInput = (field: keyof Values) => (event: { currentTarget: { value: string } }) =>
    set(field)(event.currentTarget.value);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZBillingDetailsUpdate.safeParse(values);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    mutation.mutate(values, {
      onSuccess: (saved) => {
        setValues(valuesOf(saved));
        flash("done");
        notifications.show({
          color: "teal",
          title: "Billing details saved",
          message: "Your invoices are made out to these details.",
        });
      },
      onError: (error) => {
        flash("failed");
        setErrors(fieldErrors(error) ?? { general: errorMessage(error) });
      },
    });
  };

  return (
    <Card mt="lg" component="section" aria-labelledby="billing-details-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={3} size="h4" id="billing-details-title">
              Billing details
            </Title>
            <Text size="sm" c="dimmed">
              Your invoices are made out to these details, as your accountant needs them.
            </Text>
          </div>
          {errors.general ? (
            <Alert color="red" icon={<IconAlert />}>
              {errors.general}
            </Alert>
          ) : null}
          <TextInput
            label="Billing name"
            description="Your company's legal name. Empty: the company name."
            placeholder={company.name}
            value={values.name}
            onChange={fromInput("name")}
            error={errors.name}
          />
          <Textarea
            label="Address"
            description="Street and number, up to 3 lines."
            autosize
            minRows={2}
            value={values.address}
            onChange={fromInput("address")}
            error={errors.address}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            <TextInput
              label="Postal code"
              value={values.postal_code}
              onChange={fromInput("postal_code")}
              error={errors.postal_code}
            />
            <TextInput label="City" value={values.city} onChange={fromInput("city")} error={errors.city} />
            <Select
              label="Country"
              placeholder="Choose a country"
              searchable
              clearable
              data={countries}
              value={values.country || null}
              onChange={(value) => set("country")(value ?? "")}
              error={errors.country}
            />
          </SimpleGrid>
          <TextInput
            label="VAT or tax number"
            description={
              eu
                ? "An EU VAT number starts with its country's prefix, e.g. DE123456789."
                : "As your tax office writes it."
            }
            value={values.vat_id}
            onChange={fromInput("vat_id")}
            error={errors.vat_id}
          />
          <Group justify="flex-end">
            <FeedbackButton type="submit" feedback={feedback} loading={mutation.isPending} miw={150}>
              Save billing details
            </FeedbackButton>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
