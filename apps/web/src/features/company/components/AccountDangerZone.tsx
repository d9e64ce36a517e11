import type { TCompany } from "@app/core";
import { Button, Divider, Group, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { errorMessage } from "../../../lib/api";
import { useModals } from "../../../ui/modals";
import { useCancelSubscription, useDeleteAccount } from "../hooks";
import { SettingsSection } from "./SettingsSection";

const CANCEL_REASONS = [
  "It is too expensive",
  "It is missing features I need",
  "I am switching to another tool",
  "I do not use it enough",
  "Other",
].map((reason) => ({ value: reason, label: reason }));

/** Cancel the subscription or delete the whole account; both ask first (docs/product.md §7 DELETE /api/company). */
export function AccountDangerZone({ company }: { company: TCompany }) {
  const modals = useModals();
  const cancelSubscription = useCancelSubscription();
  const deleteAccount = useDeleteAccount();
  const canCancel = company.hasSubscription && !company.isCanceled;

  const onCancel = async () => {
    const values = await modals.form({
      title: "Cancel subscription",
      description: "Your dashboards stay available until the end of the paid period. Tell us why you are leaving.",
      inputs: [
        { name: "reason", label: "Reason", kind: "select", required: true, options: CANCEL_REASONS },
        { name: "feedback", label: "Feedback", kind: "textarea", placeholder: "What could we have done better?" },
      ],
      submitLabel: "Cancel subscription",
      cancelLabel: "Keep subscription",
    });
    if (!values) return;
    cancelSubscription.mutate(
      { reason: String(values.reason ?? ""), feedback: String(values.feedback ?? "") },
      {
        onSuccess: () =>
          notifications.show({ color: "teal", title: "Subscription canceled", message: "We are sorry to see you go." }),
        onError: (error) =>
          notifications.show({ color: "red", title: "Could not cancel", message: errorMessage(error) }),
      },
    );
  };

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
              <Button
                variant="default"
                style={{ flexShrink: 0 }}
                onClick={onCancel}
                loading={cancelSubscription.isPending}
              >
                Cancel subscription
              </Button>
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
