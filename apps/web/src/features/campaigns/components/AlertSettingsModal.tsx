import type { AlertDigestFrequency, TAlertRule } from "@app/core";
import { Alert, Button, Group, Modal, Radio, Skeleton, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useEffect, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconAlert } from "../../../ui/icons";
import { useAlertSettings, useSaveAlertSettings } from "../hooks";
import { AlertRulesEditor } from "./AlertRulesEditor";

const DIGESTS: { value: AlertDigestFrequency; label: string; description: string }[] = [
  { value: "daily", label: "Daily", description: "Every morning at 08:00 when an alert is open." },
  { value: "weekly", label: "Weekly", description: "Monday mornings at 08:00, with the week's new alerts marked." },
  { value: "off", label: "Off", description: "Alerts show in Mission Control only." },
];

/**
 * The company's alert rules and digest (admins edit, members read). Every group follows these rules
 * unless it changes one of them on its own page.
 */
export function AlertSettingsModal({
  opened,
  onClose,
  canEdit,
}: {
  opened: boolean;
  onClose: () => void;
  canEdit: boolean;
}) {
  const settings = useAlertSettings();
  const save = useSaveAlertSettings();
  const [rules, setRules] = useState<TAlertRule[]>([]);
  const [digest, setDigest] = useState<AlertDigestFrequency>("daily");
  const [errors, setErrors] = useState<Record<string, string>>({});

  // Each opening starts from what is saved.
  useEffect(() => {
    if (opened && settings.data) {
      setRules(settings.data.rules);
      setDigest(settings.data.digest);
      setErrors({});
    }
  }, [opened, settings.data]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    save.mutate(
      { rules, digest },
      {
        onSuccess: () => {
          notifications.show({
            color: "teal",
            title: "Alert rules saved",
            message: "Every domain is judged again now.",
          });
          onClose();
        },
        onError: (error) => setErrors(fieldErrors(error) ?? { general: errorMessage(error) }),
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Alert rules and digest" size="xl">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            An alert opens the first time a domain breaks a rule and closes after two good days in a row. A group can
            change these rules for its own domains.
          </Text>
          {errors.general ? (
            <Alert color="red" icon={<IconAlert />}>
              {errors.general}
            </Alert>
          ) : null}
          {settings.isError ? (
            <Alert color="red" icon={<IconAlert />}>
              {errorMessage(settings.error)}
            </Alert>
          ) : null}
          {settings.data ? (
            <AlertRulesEditor rules={rules} onChange={setRules} errors={errors} disabled={!canEdit} />
          ) : (
            <Skeleton h={240} />
          )}
          <Radio.Group
            label="E-mail digest to the company's admins"
            value={digest}
            onChange={(value) => setDigest(value as AlertDigestFrequency)}
            error={errors.digest}
          >
            <Group gap="xl" mt="xs" align="flex-start">
              {DIGESTS.map((option) => (
                <Radio
                  key={option.value}
                  value={option.value}
                  label={option.label}
                  description={option.description}
                  disabled={!canEdit}
                  maw={220}
                />
              ))}
            </Group>
          </Radio.Group>
          {canEdit ? null : (
            <Text size="sm" c="dimmed">
              Only an admin can change the alert rules.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {canEdit ? "Cancel" : "Close"}
            </Button>
            {canEdit ? (
              <Button type="submit" loading={save.isPending} disabled={!settings.data}>
                Save rules
              </Button>
            ) : null}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
