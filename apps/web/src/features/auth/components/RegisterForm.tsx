import { MAX_REGISTRATION_DASHBOARDS, normaliseNumberInput, ZRegister } from "@app/core";
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
  SegmentedControl,
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
import { IconAlert } from "../../../ui/icons";
import { NumberField } from "../../../ui/NumberField";
import { usePageData } from "../../session/hooks";
import { goTo, type RegisterBody, register } from "../api";
import { parseRegistrationParams, readAnalyticsClientId } from "../registration-params";
import { runRegistrationSteps } from "../registration-steps";
import { AuthCard } from "./AuthCard";

const DASHBOARDS_LIMITS = { min: 1, max: MAX_REGISTRATION_DASHBOARDS };

/** Registration form of docs/product.md §2/§5: validate → (payment steps) → submit; 422 errors per field. */
export function RegisterForm() {
  const [searchParams] = useSearchParams();
  const params = useMemo(() => parseRegistrationParams(searchParams), [searchParams]);
  const { config } = usePageData();

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
      coupons: JSON.stringify(params.coupons),
      dashboards: normaliseNumberInput(dashboards ?? "", DASHBOARDS_LIMITS) ?? params.dashboards,
      interval: interval === "12" ? 12 : 1,
      cid: readAnalyticsClientId(),
      flow: params.flow,
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
      setErrors({ general: errorMessage(error) });
      return;
    }
    mutation.mutate(body);
  };

  const consented = termsConsent && ageConsent;

  return (
    <AuthCard title="Create your account" subtitle="Set up your reporting workspace in a minute.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {errors.general ? (
            <Alert color="red" icon={<IconAlert />} title="Registration failed">
              {errors.general}
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
            <NumberField
              label="Dashboards"
              min={DASHBOARDS_LIMITS.min}
              max={DASHBOARDS_LIMITS.max}
              value={dashboards}
              onValueChange={setDashboards}
              error={errors.dashboards}
            />
            <Input.Wrapper label="Billing" error={errors.interval}>
              <SegmentedControl
                fullWidth
                mt={4}
                value={interval}
                onChange={(value) => setInterval(value === "12" ? "12" : "1")}
                data={[
                  { value: "1", label: "Monthly" },
                  { value: "12", label: "Annual" },
                ]}
              />
            </Input.Wrapper>
          </SimpleGrid>
          {params.coupons.length > 0 || errors.coupon ? (
            <Input.Wrapper label="Coupons" error={errors.coupon}>
              <Group gap="xs" mt={4}>
                {params.coupons.map((code) => (
                  <Badge key={code} variant="outline" size="lg" tt="none">
                    {code}
                  </Badge>
                ))}
              </Group>
            </Input.Wrapper>
          ) : null}

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

          <Button type="submit" size="md" fullWidth mt="xs" disabled={!consented} loading={busy || mutation.isPending}>
            Register
          </Button>
        </Stack>
      </form>
      <Text size="sm" c="dimmed" ta="center">
        Already have an account?{" "}
        <Anchor component={Link} to="/login" fw={600}>
          Log in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
