import { type TCompany, PAYMENT_CONFIRMATION_TEXTS as TEXTS } from "@app/core";
import { Alert, Button, Loader, Stack, Text } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { IconAlert } from "../../../ui/icons";
import { confirmSubscription } from "../api";
import { waitForConfirmation } from "../confirmation";

interface Props {
  /** The paid checkout's session: what the server checks with Stripe. */
  orderRef: string;
  /** The company as the page has it now (it follows CompanySubscriptionUpdated). */
  company: TCompany;
  /** The subscription the company had before this checkout (a canceled one), or null. */
  previousSubscription: string | null;
  onConfirmed: () => void;
}

/**
 * After the embedded checkout reports completion: "Confirming your payment" while the server has not
 * confirmed it (its check of the session with Stripe, asked every few seconds, or Stripe's webhook pushed
 * to the page), then `onConfirmed`; after a minute without it, what to do (docs/decisions.md "Payment
 * received only once confirmed"), with a button to check again.
 */
export function PaymentConfirmation({ orderRef, company, previousSubscription, onConfirmed }: Props) {
  const [status, setStatus] = useState<"confirming" | "unconfirmed">("confirming");
  const [round, setRound] = useState(0);
  const done = useRef(false);
  const confirmed = useRef(onConfirmed);
  confirmed.current = () => {
    if (done.current) return;
    done.current = true;
    onConfirmed();
  };

  useEffect(() => {
    // `round` starts the checks again ("Check again").
    void round;
    const leave = new AbortController();
    setStatus("confirming");
    void waitForConfirmation(async () => (await confirmSubscription(orderRef)).confirmed, leave.signal).then((ok) => {
      if (leave.signal.aborted) return;
      if (ok) confirmed.current();
      else setStatus("unconfirmed");
    });
    return () => leave.abort();
  }, [orderRef, round]);

  // Stripe's webhook reached the server first and the company was pushed running the new subscription.
  const running =
    company.hasSubscription && !company.isCanceled && (company.subscription?.id ?? null) !== previousSubscription;
  useEffect(() => {
    if (running) confirmed.current();
  }, [running]);

  if (status === "confirming") {
    return (
      <Alert color="blue" title={TEXTS.confirmingTitle} icon={<Loader size={16} />} role="status">
        {TEXTS.confirming}
      </Alert>
    );
  }
  return (
    <Alert color="yellow" title={TEXTS.unconfirmedTitle} icon={<IconAlert />}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{TEXTS.unconfirmed(orderRef)}</Text>
        <Button size="xs" variant="default" onClick={() => setRound((n) => n + 1)}>
          {TEXTS.checkAgain}
        </Button>
      </Stack>
    </Alert>
  );
}
