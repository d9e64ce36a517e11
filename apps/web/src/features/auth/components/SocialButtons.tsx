import {
  SOCIAL_PROVIDER_NAMES,
  socialAuthMessage,
  socialAuthNotice,
  type TSocialProvider,
  type TSocialRegister,
  ZSocialRegister,
} from "@app/core";
import { Alert, Box, Button, Divider, Stack } from "@mantine/core";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { zodFieldErrors } from "../../../lib/form-errors";
import { IconAlert, IconInfo } from "../../../ui/icons";
import { checkoutFailureText } from "../../billing";
import { usePageData } from "../../session/hooks";
import { goTo, socialLogin, socialRegister } from "../api";
import { socialSignUpSteps } from "../registration-steps";

const BRAND: Record<TSocialProvider, { color: string; letter: string }> = {
  google: { color: "#4285F4", letter: "G" },
  facebook: { color: "#1877F2", letter: "f" },
  linkedin: { color: "#0A66C2", letter: "in" },
};

/** The provider's initial on its colour, so the buttons are told apart at a glance. */
function ProviderMark({ provider }: { provider: TSocialProvider }) {
  const { color, letter } = BRAND[provider];
  return (
    <Box
      component="span"
      aria-hidden
      w={20}
      h={20}
      bg={color}
      c="white"
      fz={letter.length > 1 ? 10 : 13}
      fw={700}
      style={{ borderRadius: 4, display: "inline-flex", alignItems: "center", justifyContent: "center" }}
    >
      {letter}
    </Box>
  );
}

/** One button per provider this server offers (page data); nothing at all when it offers none. */
function ProviderButtons({
  verb,
  busy,
  disabled = false,
  onPick,
}: {
  verb: string;
  busy: TSocialProvider | null;
  disabled?: boolean;
  onPick: (provider: TSocialProvider) => void;
}) {
  const { config } = usePageData();
  if (config.socialProviders.length === 0) return null;
  return (
    <Stack gap="sm">
      <Divider label="or" labelPosition="center" />
      {config.socialProviders.map((provider) => (
        <Button
          key={provider}
          variant="default"
          size="md"
          fullWidth
          leftSection={<ProviderMark provider={provider} />}
          loading={busy === provider}
          disabled={disabled || (busy !== null && busy !== provider)}
          onClick={() => onPick(provider)}
        >
          {verb} with {SOCIAL_PROVIDER_NAMES[provider]}
        </Button>
      ))}
    </Stack>
  );
}

/**
 * The browser leaves for the provider's page; the callback brings it back signed in or with a reason.
 * `begin` answers null when the sign-in stopped before the provider (nothing to go to).
 */
function useProviderStart<T>(
  begin: (provider: TSocialProvider, input: T) => Promise<{ data: { redirect: string } } | null>,
) {
  const [busy, setBusy] = useState<TSocialProvider | null>(null);
  const run = async (provider: TSocialProvider, input: T, onError: (error: unknown) => void) => {
    setBusy(provider);
    try {
      const started = await begin(provider, input);
      if (started) goTo(started.data.redirect);
      else setBusy(null);
    } catch (error) {
      setBusy(null);
      onError(error);
    }
  };
  return { busy, run };
}

/**
 * "Sign up with …" on the registration page (docs/product.md §4): the age and terms checkboxes must be
 * ticked first (their field errors show otherwise); then, as the form does, the registration steps run
 * (the checkout when payments are on: closing it stops here with its reason), and only then is the
 * provider asked, with the plan, the page's coupons and the paid checkout's references.
 */
export function SocialSignUp({
  registration,
  email,
  disabled,
  onErrors,
}: {
  /** The plan, consents and coupons of the page (the checkout's references are added here). */
  registration: Omit<TSocialRegister, "order_ref" | "order_id">;
  /** The form's e-mail field as typed: only pre-fills the checkout. */
  email: string;
  disabled?: boolean;
  onErrors: (errors: Record<string, string>) => void;
}) {
  const { config } = usePageData();
  const begin = async (provider: TSocialProvider, input: TSocialRegister) => {
    const paid = await socialSignUpSteps(input, email, config);
    return paid ? socialRegister(provider, paid) : null;
  };
  const { busy, run } = useProviderStart(begin);
  const pick = (provider: TSocialProvider) => {
    const parsed = ZSocialRegister.safeParse(registration);
    if (!parsed.success) {
      onErrors(zodFieldErrors(parsed.error));
      return;
    }
    onErrors({});
    void run(provider, parsed.data, (error) =>
      onErrors(fieldErrors(error) ?? { general: checkoutFailureText(error) ?? errorMessage(error) }),
    );
  };
  return <ProviderButtons verb="Sign up" busy={busy} disabled={disabled} onPick={pick} />;
}

/** "Log in with …" on the login page. */
export function SocialLogIn({ onError }: { onError: (message: string) => void }) {
  const { busy, run } = useProviderStart((provider: TSocialProvider) => socialLogin(provider));
  return (
    <ProviderButtons
      verb="Log in"
      busy={busy}
      onPick={(provider) => void run(provider, undefined, (error) => onError(errorMessage(error)))}
    />
  );
}

/** Why the last social sign-in did not sign anyone in (`?social_error=…&provider=…` from the callback). */
export function SocialSignInError() {
  const [params] = useSearchParams();
  // `payment=refunded`: the sign-up had paid and no account took it, so the payment is given back.
  const message = socialAuthMessage(params.get("social_error"), params.get("provider"), params.get("payment"));
  if (!message) return null;
  return (
    <Alert color="red" icon={<IconAlert />} title="Not signed in">
      {message}
    </Alert>
  );
}

/**
 * Said once after a social sign-in that signed an existing account in although the sign-up had paid
 * (`?social_notice=…&provider=…`): no new account, the payment is being refunded. Read on the first
 * render, so the page changing its own address (filters, paging) does not hide it mid-read.
 */
export function SocialSignInNotice() {
  const [params] = useSearchParams();
  const [message] = useState(() => socialAuthNotice(params.get("social_notice"), params.get("provider")));
  if (!message) return null;
  return (
    <Alert color="blue" icon={<IconInfo />} title="Signed in to your existing account" mb="md">
      {message}
    </Alert>
  );
}
