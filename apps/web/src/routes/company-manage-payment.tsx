import { Button, Stack, Text } from "@mantine/core";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { ApiError, call, errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { PageHeader } from "../ui/PageHeader";

/**
 * /company/manage-payment (admins; banner 128 links here): opens Stripe's billing portal, where the card
 * is changed. Without a card on file, or with payments off on this server, there is nothing to manage:
 * the subscription page is where a plan is bought.
 */
export default function CompanyManagePaymentScreen() {
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  // One portal session per visit, even when React runs the effect twice in development.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    call("companyPaymentPortal")
      .then(({ data }) => window.location.assign(data.url))
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 422) navigate("/company/subscription", { replace: true });
        else setProblem(errorMessage(error));
      });
  }, [navigate]);
  if (!problem) return <PageLoader />;
  return (
    <>
      <PageHeader title="Manage payment" description="Your card is managed on Stripe's secure page." />
      <Stack gap="sm" align="flex-start">
        <Text>{problem}</Text>
        <Button component={Link} to="/company/subscription" variant="default">
          View subscription
        </Button>
      </Stack>
    </>
  );
}
