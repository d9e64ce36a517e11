import {
  CHECKOUT_TEXTS,
  normaliseNumberInput,
  PAYMENT_CONFIRMATION_TEXTS,
  type TCompany,
  type TSubscriptionInput,
} from "@app/core";
import { Alert, Button, Card, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconAlert } from "../../../ui/icons";
import { CancelSubscriptionButton } from "../../company";
import { usePageData, useRefreshPageData } from "../../session/hooks";
import { changeSubscription, startSubscription } from "../api";
import { checkoutFailureText, openCheckout } from "../checkout";
import { livePrice } from "../price";
import { CheckoutHost } from "./CheckoutHost";
import { LivePrice } from "./LivePrice";
import { PaymentConfirmation } from "./PaymentConfirmation";
import { PLAN_DASHBOARDS_LIMITS, PlanFields } from "./PlanFields";

/** A paid checkout the server has not confirmed yet: its session and the subscription the company had. */
interface Paying {
  orderRef: string;
  previous: string | null;
}

/**
 * The subscription page's plan (docs/product.md §4): a trial or canceled company subscribes (POST, then
 * the embedded checkout), a subscribed one changes its dashboards or interval (PUT, prorated), cancels,
 * or manages its card. The company shown follows CompanySubscriptionUpdated, so it changes live: the
 * form starts again from the company's plan whenever its state or subscription changes, while a payment
 * being confirmed is kept above it (the confirmation itself changes them).
 */
export function SubscriptionPlan({ company }: { company: TCompany }) {
  const refreshPageData = useRefreshPageData();
  const [paying, setPaying] = useState<Paying | null>(null);
  const confirmation = paying ? (
    <PaymentConfirmation
      orderRef={paying.orderRef}
      company={company}
      previousSubscription={paying.previous}
      onConfirmed={() => {
        setPaying(null);
        notifications.show({
          color: "teal",
          title: PAYMENT_CONFIRMATION_TEXTS.receivedTitle,
          message: PAYMENT_CONFIRMATION_TEXTS.received,
        });
        void refreshPageData();
      }}
    />
  ) : null;
  return (
    <PlanForm
      key={`${company.state}-${company.subscription?.id ?? ""}`}
      company={company}
      confirmation={confirmation}
      onPaid={setPaying}
    />
  );
}

function PlanForm({
  company,
  confirmation,
  onPaid,
}: {
  company: TCompany;
  confirmation: React.ReactNode;
  onPaid: (paying: Paying) => void;
}) {
  const { config } = usePageData();
  const refreshPageData = useRefreshPageData();
  const subscribed = company.hasSubscription && !company.isCanceled;
  const [dashboards, setDashboards] = useState<number | null>(company.services.dashboards);
  const [interval, setInterval] = useState<"1" | "12">(company.subscription?.interval === 12 ? "12" : "1");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const paying = confirmation !== null;
  const plan: TSubscriptionInput = {
    dashboards: normaliseNumberInput(dashboards ?? "", PLAN_DASHBOARDS_LIMITS) ?? 0,
    interval: interval === "12" ? 12 : 1,
    coupons: [],
  };
  const price = livePrice({ ...plan, coupons: company.coupons, discountPercent: company.discount });
  const unchanged =
    subscribed && plan.dashboards === company.services.dashboards && plan.interval === company.subscription?.interval;

  const mutation = useMutation({
    mutationFn: async (input: TSubscriptionInput): Promise<{ paidRef: string | null }> => {
      if (subscribed) {
        await changeSubscription(input);
        return { paidRef: null };
      }
      const previous = company.subscription?.id ?? null;
      const answer = await startSubscription(input);
      if (!answer.checkout) return { paidRef: null };
      await openCheckout(answer.checkout, {
        jsUrl: config.stripeJsUrl,
        order: null,
        closedText: CHECKOUT_TEXTS.closedSubscription,
      });
      // Completed in Stripe's form is not received: the server confirms it (PaymentConfirmation).
      onPaid({ orderRef: answer.checkout.order_ref, previous });
      return { paidRef: answer.checkout.order_ref };
    },
    onSuccess: async ({ paidRef }) => {
      setErrors({});
      if (!paidRef) {
        notifications.show({ color: "teal", title: "Plan changed", message: "Your new plan applies from now on." });
      }
      await refreshPageData();
    },
    onError: (error) => setErrors(fieldErrors(error) ?? { general: checkoutFailureText(error) ?? errorMessage(error) }),
  });

  if (!config.paymentEnabled) {
    return (
      <Card mb="lg">
        <Text size="sm" c="dimmed">
          Card payments are not set up on this server: contact us to change your plan.
        </Text>
      </Card>
    );
  }

  return (
    <Card mb="lg">
      <Stack gap="md">
        <Title order={3} size="h4">
          {subscribed ? "Change plan" : "Subscribe"}
        </Title>
        {confirmation}
        {errors.general ? (
          <Alert color="red" icon={<IconAlert />}>
            {errors.general}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <PlanFields
            dashboards={dashboards}
            onDashboards={setDashboards}
            interval={interval}
            onInterval={setInterval}
            errors={errors}
          />
          <LivePrice price={price} />
        </SimpleGrid>
        <Group gap="sm" wrap="wrap">
          <Button
            onClick={() => mutation.mutate(plan)}
            loading={mutation.isPending}
            // Not twice while a payment is being confirmed.
            disabled={!price || unchanged || paying}
          >
            {subscribed ? "Change plan" : "Subscribe"}
          </Button>
          {company.hasSubscription ? (
            <Button component={Link} to="/company/manage-payment" variant="default">
              Manage payment method
            </Button>
          ) : null}
          {subscribed ? <CancelSubscriptionButton color="red" variant="subtle" /> : null}
        </Group>
      </Stack>
      <CheckoutHost />
    </Card>
  );
}
