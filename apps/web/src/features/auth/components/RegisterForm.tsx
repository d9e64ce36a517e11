import { COUPON_TEXTS, couponSummary, normaliseNumberInput, ZRegister } from "@app/core";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Divider,
  Group,
  Input,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useMemo, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { zodFieldErrors } from "../../../lib/form-errors";
import { browserTimeZone } from "../../../lib/time-zone";
import { IconAlert } from "../../../ui/icons";
import {
  CheckoutHost,
  checkoutFailureText,
  LivePrice,
  livePrice,
  PLAN_DASHBOARDS_LIMITS,
  PlanFields,
} from "../../billing";
import { usePageData } from "../../session/hooks";
import { goTo, type RegisterBody, register } from "../api";
import { useCouponChecks } from "../coupon-lookup";
import { parseRegistrationParams, readAnalyticsClientId, registrationFlow } from "../registration-params";
import { runRegistrationSteps } from "../registration-steps";
import { AuthCard } from "./AuthCard";
import { SocialSignInError, SocialSignUp } from "./SocialButtons";

/** Registration form of docs/product.md §2/§5: validate → (payment steps) → submit; 422 errors per field. */
export function RegisterForm() {
  const [searchParams] = useSearchParams();
  const params = useMemo(() => parseRegistrationParams(searchParams), [searchParams]);
  const { config } = usePageData();
  // The URL's codes, checked with the look-up as the page opens (docs/product.md §2, §8).
  const couponChecks = useCouponChecks(params.coupons);
  const validCoupons = couponChecks.flatMap((check) => (check.status === "valid" ? [check.info] : []));
  const checkingCoupons = couponChecks.some((check) => check.status === "checking");

  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [termsConsent, setTermsConsent] = useState(false);
  const [ageConsent, setAgeConsent] = useState(false);
  const [dashboards, setDashboards] = useState<number | null>(params.dashboards);
  const [interval, setInterval] = useState<"1" | "12">(params.interval === 12 ? "12" : "1");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const mutation = useMutation({
    mutationFn: register,
    onSuccess: (result) => goTo(result.data.redirect),
    onError: (error) => {
      setBusy(false);
      setErrors(fieldErrors(error) ?? { general: errorMessage(error) });
    },
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: RegisterBody = {
      name,
      email,
      password,
      password_confirmation: confirmation,
      terms_consent: termsConsent,
      age_consent: ageConsent,
      // Only codes the look-up accepted: a stale link's code must not block the sign-up (the server
      // still decides, and answers 422 on `coupon` if one stopped working meanwhile).
      coupons: JSON.stringify(validCoupons.map((coupon) => coupon.code)),
      dashboards: normaliseNumberInput(dashboards ?? "", PLAN_DASHBOARDS_LIMITS) ?? params.dashboards,
      interval: interval === "12" ? 12 : 1,
      cid: readAnalyticsClientId(),
      flow: registrationFlow(
        params.flow,
        validCoupons.map((coupon) => coupon.type),
      ),
      // The user's and the company's zone: reports then go out on the agency's own clock.
      timezone: browserTimeZone(),
    };
    const parsed = ZRegister.safeParse(body);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      if (!(await runRegistrationSteps(body, config))) {
        setBusy(false);
        return;
      }
    } catch (error) {
      setBusy(false);
      // A closed checkout says why (docs/product.md §8); nothing was created.
      setErrors({ general: checkoutFailureText(error) ?? errorMessage(error) });
      return;
    }
    mutation.mutate(body);
  };

  const consented = termsConsent && ageConsent;
  // The price as the user chooses (the server prices the checkout again); shown when payments are on.
  const price = config.paymentEnabled
    ? livePrice({
        dashboards: normaliseNumberInput(dashboards ?? "", PLAN_DASHBOARDS_LIMITS),
        interval: interval === "12" ? 12 : 1,
        coupons: validCoupons,
      })
    : null;

  return (
    <AuthCard title="Create your account" subtitle="Set up your reporting workspace in a minute.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <SocialSignInError />
          {errors.general || errors.order_ref ? (
            <Alert color="red" icon={<IconAlert />} title="Registration failed">
              {/* The checkout's references are no field of the page: their refusal is the page's. */}
              {errors.general ?? errors.order_ref}
            </Alert>
          ) : null}
          <TextInput
            label="Name"
            autoComplete="name"
            placeholder="Jane Cooper"
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={errors.name}
            required
            data-autofocus
          />
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            placeholder="you@agency.com"
            value={email}
            onChange={(event) => setEmail(event.currentTarget.value)}
            error={errors.email}
            required
          />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <PasswordInput
              label="Password"
              description="At least 8 characters"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.currentTarget.value)}
              error={errors.password}
              required
            />
            <PasswordInput
              label="Confirm password"
              description="Type it once more"
              autoComplete="new-password"
              value={confirmation}
              onChange={(event) => setConfirmation(event.currentTarget.value)}
              error={errors.password_confirmation}
              required
            />
          </SimpleGrid>

          <Divider label="Your plan" labelPosition="left" mt="xs" />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <PlanFields
              dashboards={dashboards}
              onDashboards={setDashboards}
              interval={interval}
              onInterval={setInterval}
              errors={errors}
            />
          </SimpleGrid>
          {params.coupons.length > 0 || errors.coupon ? (
            <Input.Wrapper
              label="Coupons"
              error={
                errors.coupon ??
                (couponChecks.some((check) => check.status === "invalid") ? COUPON_TEXTS.notValid : undefined)
              }
            >
              <Group gap="xs" mt={4}>
                {couponChecks.map((check) => (
                  <Badge
                    key={check.code}
                    variant={check.status === "valid" ? "light" : "outline"}
                    color={check.status === "valid" ? "teal" : check.status === "invalid" ? "red" : "gray"}
                    size="lg"
                    tt="none"
                    td={check.status === "invalid" ? "line-through" : undefined}
                  >
                    {check.status === "valid" ? `${check.code} · ${couponSummary(check.info)}` : check.code}
                  </Badge>
                ))}
              </Group>
            </Input.Wrapper>
          ) : null}

          <LivePrice price={price} />

          <Stack gap="sm" mt="xs">
            <Checkbox
              label="I agree to the Terms and Conditions"
              checked={termsConsent}
              onChange={(event) => setTermsConsent(event.currentTarget.checked)}
              error={errors.terms_consent}
            />
            <Checkbox
              label="I confirm I am at least 16 years old"
              checked={ageConsent}
              onChange={(event) => setAgeConsent(event.currentTarget.checked)}
              error={errors.age_consent}
            />
          </Stack>

          <Button
            type="submit"
            size="md"
            fullWidth
            mt="xs"
            disabled={!consented || checkingCoupons}
            loading={busy || mutation.isPending}
          >
            Register
          </Button>
          <SocialSignUp
            registration={{
              terms_consent: termsConsent,
              age_consent: ageConsent,
              // The same codes and flow the form would post.
              coupons: validCoupons.map((coupon) => coupon.code),
              dashboards: normaliseNumberInput(dashboards ?? "", PLAN_DASHBOARDS_LIMITS) ?? params.dashboards,
              interval: interval === "12" ? 12 : 1,
              cid: readAnalyticsClientId(),
              flow: registrationFlow(
                params.flow,
                validCoupons.map((coupon) => coupon.type),
              ),
              timezone: browserTimeZone(),
            }}
            email={email}
            disabled={checkingCoupons || busy || mutation.isPending}
            onErrors={setErrors}
          />
        </Stack>
      </form>
      <CheckoutHost />
      <Text size="sm" c="dimmed" ta="center">
        Already have an account?{" "}
        <Anchor component={Link} to="/login" fw={600}>
          Log in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
