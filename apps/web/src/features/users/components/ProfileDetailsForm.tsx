import { type TUser, ZUserUpdate } from "@app/core";
import { Alert, Group, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useMemo, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { zodFieldErrors } from "../../../lib/form-errors";
import { FeedbackButton, useFeedback } from "../../../ui/FeedbackButton";
import { IconAlert } from "../../../ui/icons";
import { SelectInput } from "../../../ui/SelectInput";
import { timezoneOptions } from "../../../ui/timezones";
import { useUpdateUser } from "../hooks";
import { ROLE_OPTIONS } from "../roles";

/** Name, e-mail, time zone and (for an admin editing someone else) role. */
export function ProfileDetailsForm({ user, canEditRole }: { user: TUser; canEditRole: boolean }) {
  const [name, setName] = useState(user.name);
  const [email, setEmail] = useState(user.email);
  const [timezone, setTimezone] = useState<string | null>(user.timezone || null);
  const [roleName, setRoleName] = useState<string>(user.roleName);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const { feedback, flash } = useFeedback();
  const mutation = useUpdateUser();
  const zones = useMemo(() => timezoneOptions(user.timezone), [user.timezone]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZUserUpdate.safeParse({
      name,
      email,
      timezone: timezone ?? undefined,
      roleName: canEditRole ? roleName : undefined,
    });
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    mutation.mutate(
      { id: user.id, body: parsed.data },
      {
        onSuccess: () => {
          flash("done");
          notifications.show({ color: "teal", title: "Profile saved", message: "The profile is up to date." });
        },
        onError: (error) => {
          flash("failed");
          setErrors(fieldErrors(error) ?? { general: errorMessage(error) });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {errors.general ? (
          <Alert color="red" icon={<IconAlert />}>
            {errors.general}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Name"
            autoComplete="name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            required
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
            required
          />
          <SelectInput
            label="Timezone"
            data={zones}
            value={timezone}
            onChange={setTimezone}
            error={errors.timezone}
            limit={60}
            required
          />
          {canEditRole ? (
            <SelectInput
              label="Role"
              searchable={false}
              data={ROLE_OPTIONS}
              value={roleName}
              onChange={(value) => setRoleName(value ?? user.roleName)}
              error={errors.roleName}
            />
          ) : null}
        </SimpleGrid>
        <Group justify="flex-end">
          <FeedbackButton type="submit" feedback={feedback} loading={mutation.isPending} miw={140}>
            Save profile
          </FeedbackButton>
        </Group>
      </Stack>
    </form>
  );
}
