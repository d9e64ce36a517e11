import { MAX_CAMPAIGN_NAME, type TAlertRule, type TCampaign } from "@app/core";
import { Alert, Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { type FormEvent, useEffect, useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconAlert } from "../../../ui/icons";
import { useAlertSettings, useUpdateCampaign } from "../hooks";
import { overridesFrom } from "../rules-view";
import { AlertRulesEditor } from "./AlertRulesEditor";

/**
 * A group's name and its own alert rules (admin only): the company's rules with this group's changes.
 * Only the changed fields are saved, so a rule the group left alone keeps following the company's.
 */
export function GroupSettingsModal({
  campaign,
  opened,
  onClose,
}: {
  campaign: TCampaign;
  opened: boolean;
  onClose: () => void;
}) {
  const company = useAlertSettings();
  const update = useUpdateCampaign(campaign.id);
  const [name, setName] = useState(campaign.name);
  const [rules, setRules] = useState<TAlertRule[]>(campaign.alert_rules);
  const [errors, setErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    if (opened) {
      setName(campaign.name);
      setRules(campaign.alert_rules);
      setErrors({});
    }
  }, [opened, campaign.name, campaign.alert_rules]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const base = company.data?.rules ?? campaign.alert_rules;
    update.mutate(
      { name, alert_overrides: overridesFrom(base, rules) },
      {
        onSuccess: () => {
          notifications.show({ color: "teal", title: "Group saved", message: "Its domains are judged again now." });
          onClose();
        },
        onError: (error) => {
          const fields = fieldErrors(error) ?? { general: errorMessage(error) };
          // Overrides are sent by rule, not by row: show their errors above the table.
          const general = Object.entries(fields)
            .filter(([key]) => key.startsWith("alert_overrides"))
            .map(([, message]) => message);
          setErrors({ ...fields, ...(general.length > 0 ? { general: general.join(" ") } : {}) });
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={onClose} title="Group settings" size="xl">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {errors.general ? (
            <Alert color="red" icon={<IconAlert />}>
              {errors.general}
            </Alert>
          ) : null}
          <TextInput
            label="Group name"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            required
            maxLength={MAX_CAMPAIGN_NAME}
            maw={520}
            data-autofocus
          />
          <Stack gap={4}>
            <Text fw={500} size="sm">
              Alert rules for this group
            </Text>
            <Text size="sm" c="dimmed">
              {campaign.alert_overrides.length > 0
                ? `${campaign.alert_overrides.length} of the company's rules are changed for this group.`
                : "This group follows the company's rules."}
            </Text>
          </Stack>
          <AlertRulesEditor rules={rules} onChange={setRules} />
          <Group justify="space-between">
            <Button
              variant="subtle"
              onClick={() => setRules(company.data?.rules ?? campaign.alert_rules)}
              disabled={!company.data}
            >
              Use the company's rules
            </Button>
            <Group gap="sm">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={update.isPending}>
                Save group
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
