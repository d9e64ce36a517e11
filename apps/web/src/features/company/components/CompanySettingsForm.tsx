import { type TCompany, ZCompanyUpdate } from "@app/core";
import { Alert, Group, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { zodFieldErrors } from "../../../lib/form-errors";
import { FeedbackButton, useFeedback } from "../../../ui/FeedbackButton";
import { ImageUpload } from "../../../ui/ImageUpload";
import { IconAlert } from "../../../ui/icons";
import { useUpdateCompany } from "../hooks";
import { SettingsSection } from "./SettingsSection";

interface Values {
  name: string;
  domain: string;
  phone: string;
  site_title: string;
}

function valuesOf(company: TCompany): Values {
  return {
    name: company.name,
    domain: company.domain ?? "",
    phone: company.phone ?? "",
    site_title: company.siteTitle ?? "",
  };
}

/** Company profile and white-label settings (POST /api/company, multipart). */
export function CompanySettingsForm({ company }: { company: TCompany }) {
  const [values, setValues] = useState<Values>(() => valuesOf(company));
  const [logoFile, setLogoFile] = useState<File | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { feedback, flash } = useFeedback();
  const mutation = useUpdateCompany();

  const set = (field: keyof Values) => (event: { currentTarget: { value: string } }) => {
    const value = event.currentTarget.value;
    setValues((current) => ({ ...current, [field]: value }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZCompanyUpdate.safeParse(values);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    const form = new FormData();
    for (const [key, value] of Object.entries(values)) form.append(key, value.trim());
    if (logoFile) form.append("logo", logoFile);
    if (removeLogo && !logoFile) form.append("remove_logo", "1");
    mutation.mutate(form, {
      onSuccess: (saved) => {
        setValues(valuesOf(saved));
        setLogoFile(null);
        setRemoveLogo(false);
        flash("done");
        notifications.show({
          color: "teal",
          title: "Settings saved",
          message: "Your company settings are up to date.",
        });
      },
      onError: (error) => {
        flash("failed");
        setErrors(fieldErrors(error) ?? { general: errorMessage(error) });
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        {errors.general ? (
          <Alert color="red" icon={<IconAlert />}>
            {errors.general}
          </Alert>
        ) : null}
        <SettingsSection title="Company profile" description="How your company is known to your team and on invoices.">
          <Stack gap="md">
            <TextInput label="Company name" value={values.name} onChange={set("name")} error={errors.name} required />
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                label="Domain"
                placeholder="agency.com"
                value={values.domain}
                onChange={set("domain")}
                error={errors.domain}
              />
              <TextInput
                label="Phone"
                type="tel"
                placeholder="+1 555 010 2030"
                value={values.phone}
                onChange={set("phone")}
                error={errors.phone}
              />
            </SimpleGrid>
          </Stack>
        </SettingsSection>
        <SettingsSection
          title="White label"
          description="Your logo and site title replace ours across the app, shared dashboards and reports."
        >
          <Stack gap="md">
            <ImageUpload
              label="Logo"
              currentUrl={removeLogo ? null : company.logo}
              file={logoFile}
              onFileChange={(file) => {
                setLogoFile(file);
                if (file) setRemoveLogo(false);
              }}
              onRemove={() => setRemoveLogo(true)}
              error={errors.logo}
            />
            <TextInput
              label="Site title"
              description="Shown in the browser tab after each page name."
              value={values.site_title}
              onChange={set("site_title")}
              error={errors.site_title}
            />
          </Stack>
        </SettingsSection>
        <Group justify="flex-end">
          <FeedbackButton type="submit" feedback={feedback} loading={mutation.isPending} miw={150}>
            Save changes
          </FeedbackButton>
        </Group>
      </Stack>
    </form>
  );
}
