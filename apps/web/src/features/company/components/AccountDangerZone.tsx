import type { TCompany } from "@app/core";
import { Button, Divider, Group, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { errorMessage } from "../../../lib/api";
import { useModals } from "../../../ui/modals";
import { useDeleteAccount } from "../hooks";
import { CancelSubscriptionButton } from "./CancelSubscriptionButton";
import { SettingsSection } from "./SettingsSection";

/** Cancel the subscription or delete the whole account; both ask first (docs/product.md §7 DELETE /api/company). */
export function AccountDangerZone({ company }: { company: TCompany }) {
  const modals = useModals();
  const deleteAccount = useDeleteAccount();
  const canCancel = company.hasSubscription && !company.isCanceled;

  const onDelete = async () => {
    const confirmed = await modals.question({
      title: "Delete account",
      message:
        "This permanently deletes your company with its dashboards, groups, sources, reports and users. It cannot be undone.",
      submitLabel: "Delete account",
      danger: true,
    });
    if (!confirmed) return;
    deleteAccount.mutate(undefined, {
      onSuccess: () => window.location.assign("/login"),
      onError: (error) => notifications.show({ color: "red", title: "Could not delete", message: errorMessage(error) }),
    });
  };

  return (
    <SettingsSection title="Danger zone" description="Irreversible actions on your company account." danger>
      <Stack gap="md">
        {canCancel ? (
          <>
            <Group justify="space-between" wrap="wrap" gap="md">
              {/* The text takes the room; on a phone the button wraps under it instead of being cut. */}
              <div style={{ flex: "1 1 220px", minWidth: 0 }}>
                <Text fw={600} size="sm">
                  Cancel subscription
                </Text>
                <Text size="sm" c="dimmed">
                  Stop renewing. Dashboards are archived when the paid period ends.
                </Text>
              </div>
              <CancelSubscriptionButton style={{ flexShrink: 0 }} />
            </Group>
            <Divider />
          </>
        ) : null}
        <Group justify="space-between" wrap="wrap" gap="md">
          <div style={{ flex: "1 1 220px", minWidth: 0 }}>
            <Text fw={600} size="sm">
              Delete account
            </Text>
            <Text size="sm" c="dimmed">
              Remove your company and all of its data for good.
            </Text>
          </div>
          <Button color="red" style={{ flexShrink: 0 }} onClick={onDelete} loading={deleteAccount.isPending}>
            Delete account
          </Button>
        </Group>
      </Stack>
    </SettingsSection>
  );
}
