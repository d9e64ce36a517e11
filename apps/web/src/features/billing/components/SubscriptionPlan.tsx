import { CHECKOUT_TEXTS, normaliseNumberInput, type TCompany, type TSubscriptionInput } from "@app/core";
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
import { PLAN_DASHBOARDS_LIMITS, PlanFields } from "./PlanFields";

/**
 * The subscription page's plan (docs/product.md §4): a trial or canceled company subscribes (POST, then
 * the embedded checkout), a subscribed one changes its dashboards or interval (PUT, prorated), cancels,
 * or manages its card. The company shown follows CompanySubscriptionUpdated, so it changes live.
 */
export function SubscriptionPlan({ company }: { company: TCompany }) {
  const { config } = usePageData();
  const refreshPageData = useRefreshPageData();
  const subscribed = company.hasSubscription && !company.isCanceled;
  const [dashboards, setDashboards] = useState<number | null>(company.services.dashboards);
  const [interval, setInterval] = useState<"1" | "12">(company.subscription?.interval === 12 ? "12" : "1");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const plan: TSubscriptionInput = {
    dashboards: normaliseNumberInput(dashboards ?? "", PLAN_DASHBOARDS_LIMITS) ?? 0,
    interval: interval === "12" ? 12 : 1,
    coupons: [],
  };
  const price = livePrice({ ...plan, coupons: company.coupons, discountPercent: company.discount });
  const unchanged =
    subscribed && plan.dashboards === company.services.dashboards && plan.interval === company.subscription?.interval;

  const mutation = useMutation({
    mutationFn: async (input: TSubscriptionInput) => {
      if (subscribed) return { paid: false, answer: await changeSubscription(input) };
      const answer = await startSubscription(input);
      if (answer.checkout) {
        await openCheckout(answer.checkout, {
          jsUrl: config.stripeJsUrl,
          order: null,
          closedText: CHECKOUT_TEXTS.closedSubscription,
        });
      }
      return { paid: true, answer };
    },
    onSuccess: async ({ paid }) => {
      setErrors({});
      notifications.show({
        color: "teal",
        title: paid ? "Payment received" : "Plan changed",
        message: paid ? "Your subscription is active." : "Your new plan applies from now on.",
      });
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
          <Button onClick={() => mutation.mutate(plan)} loading={mutation.isPending} disabled={!price || unchanged}>
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
