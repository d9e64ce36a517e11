import type { TAuthResult, TPasskeyAssertion, TPasskeyRequestOptions } from "@app/core";
import { Button, type ButtonProps } from "@mantine/core";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { IconLock } from "../../../ui/icons";
import { passkeySignIn, signInOptions } from "../api";
import { ceremonyErrorMessage, getAssertion } from "../browser";

export interface PasskeySignInButtonProps extends Omit<ButtonProps, "onError"> {
  /** The assertion options: by default the passwordless sign-in's (any passkey of this site may answer). */
  getOptions?: () => Promise<TPasskeyRequestOptions>;
  /**
   * Sends the browser's answer to the server: by default POST /passkey/login. A second sign-in step
   * passes its own (its route checks the answer with the server's `verifyForUser`).
   */
  verify?: (response: TPasskeyAssertion) => Promise<TAuthResult>;
  /** The server accepted the passkey: usually `goTo(result.data.redirect)`. */
  onVerified: (result: TAuthResult) => void;
  /** A sentence for the person: the prompt was closed, the passkey is not registered, too many attempts… */
  onError: (message: string) => void;
  label?: string;
}

/** A button that asks the browser for a passkey and has the server check it (the login page's, or a second step's). */
export function PasskeySignInButton({
  getOptions = signInOptions,
  verify = passkeySignIn,
  onVerified,
  onError,
  label = "Sign in with a passkey",
  ...buttonProps
}: PasskeySignInButtonProps) {
  const [pending, setPending] = useState(false);

  const start = async () => {
    setPending(true);
    try {
      const result = await verify(await getAssertion(await getOptions()));
      onVerified(result);
    } catch (error) {
      const fields = fieldErrors(error);
      onError(ceremonyErrorMessage(error) ?? fields?.passkey ?? fields?.general ?? errorMessage(error));
      setPending(false);
    }
  };

  return (
    <Button
      type="button"
      variant="default"
      leftSection={<IconLock />}
      loading={pending}
      onClick={() => void start()}
      {...buttonProps}
    >
      {label}
    </Button>
  );
}
