import { CHECKOUT_TEXTS } from "@app/core";
import { Alert, Loader, Modal, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { IconAlert } from "../../../ui/icons";
import { useOpenCheckout } from "../checkout";
import { loadStripeJs } from "../stripe-js";

/**
 * Shows the open checkout (openCheckout) as a modal with Stripe's embedded checkout mounted in it.
 * Stripe's onComplete settles it as paid; closing it settles it as failed with its reason.
 */
export function CheckoutHost() {
  const open = useOpenCheckout();
  // A state, not a ref: the modal's body mounts after it opens, and the checkout waits for it.
  const [target, setTarget] = useState<HTMLDivElement | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!open || !target) return;
    setFailed(null);
    setReady(false);
    let destroyed = false;
    let destroy: (() => void) | null = null;
    loadStripeJs(open.jsUrl)
      .then((factory) =>
        factory(open.checkout.key).initEmbeddedCheckout({
          fetchClientSecret: () => Promise.resolve(open.checkout.payload),
          onComplete: () => open.settle({ completed: true }),
        }),
      )
      .then((embedded) => {
        if (destroyed) return embedded.destroy();
        embedded.mount(target);
        destroy = () => embedded.destroy();
        setReady(true);
      })
      .catch(() => !destroyed && setFailed(CHECKOUT_TEXTS.loadFailed));
    return () => {
      destroyed = true;
      destroy?.();
    };
  }, [open, target]);

  return (
    <Modal
      opened={open !== null}
      onClose={() => open?.settle({ completed: false, reason: failed ?? open.closedText })}
      title="Payment"
      size="lg"
      centered
      closeOnClickOutside={false}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          Pay securely by card. Your plan starts as soon as the payment goes through.
        </Text>
        {failed ? (
          <Alert color="red" icon={<IconAlert />}>
            {failed}
          </Alert>
        ) : null}
        {!ready && !failed ? <Loader size="sm" aria-label="Loading the payment form" /> : null}
        <div ref={setTarget} data-testid="checkout-mount" />
      </Stack>
    </Modal>
  );
}
