import type { TUser } from "@app/core";
import { Alert, Button, Checkbox, Group, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconCircleCheck } from "../../../ui/icons";
import { useUpdateUser } from "../hooks";

/** The two consents the app needs before anything else (docs/product.md §2 guard 2); once given they stay given. */
export function ConsentsForm({ user }: { user: TUser }) {
  const [terms, setTerms] = useState(user.termsConsent);
  const [age, setAge] = useState(user.ageConsent);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useUpdateUser();
  const given = user.termsConsent && user.ageConsent;

  if (given) {
    return (
      <Alert color="teal" variant="light" icon={<IconCircleCheck />}>
        You agreed to the Terms and Conditions and confirmed you are at least 16 years old.
      </Alert>
    );
  }

  const save = () => {
    setErrors({});
    mutation.mutate(
      { id: user.id, body: { terms_consent: terms, age_consent: age } },
      {
        onSuccess: () => notifications.show({ color: "teal", title: "Thank you", message: "Your consents are saved." }),
        onError: (error) => setErrors(fieldErrors(error) ?? { general: errorMessage(error) }),
      },
    );
  };

  return (
    <Stack gap="sm">
      {errors.general ? <Alert color="red">{errors.general}</Alert> : null}
      <Checkbox
        label="I agree to the Terms and Conditions"
        checked={terms}
        onChange={(event) => setTerms(event.currentTarget.checked)}
        error={errors.terms_consent}
      />
      <Checkbox
        label="I confirm I am at least 16 years old"
        checked={age}
        onChange={(event) => setAge(event.currentTarget.checked)}
        error={errors.age_consent}
      />
      <Group justify="flex-end">
        <Button onClick={save} disabled={!terms || !age} loading={mutation.isPending}>
          Save consents
        </Button>
      </Group>
    </Stack>
  );
}
