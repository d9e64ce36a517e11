import { Button, type ButtonProps } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { errorMessage } from "../../../lib/api";
import { useModals } from "../../../ui/modals";
import { useCancelSubscription } from "../hooks";

const CANCEL_REASONS = [
  "It is too expensive",
  "It is missing features I need",
  "I am switching to another tool",
  "I do not use it enough",
  "Other",
].map((reason) => ({ value: reason, label: reason }));

/**
 * "Cancel subscription": asks for a reason first, then DELETE /api/company without `delete`
 * (docs/product.md §7); used by the danger zone and the subscription page.
 */
export function CancelSubscriptionButton(props: ButtonProps) {
  const modals = useModals();
  const cancelSubscription = useCancelSubscription();

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
    // Awaited, not `mutate`'s own callbacks: the cancellation changes the company's state, which removes
    // this button from the subscription page before those callbacks would run (TanStack Query skips a
    // `mutate` callback once its component has unmounted), and the confirmation was never shown.
    try {
      await cancelSubscription.mutateAsync({
        reason: String(values.reason ?? ""),
        feedback: String(values.feedback ?? ""),
      });
      notifications.show({ color: "teal", title: "Subscription canceled", message: "We are sorry to see you go." });
    } catch (error) {
      notifications.show({ color: "red", title: "Could not cancel", message: errorMessage(error) });
    }
  };

  return (
    <Button variant="default" {...props} onClick={onCancel} loading={cancelSubscription.isPending}>
      Cancel subscription
    </Button>
  );
}
