import type { TAuthResult } from "@app/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../lib/api";
import { goTo } from "./api";

/**
 * A sign-in form's answer handling, shared by the password form and the second step: the request, its
 * field errors (or one general message), and the way out once signed in (`signedIn`, also for a passkey's
 * answer), the button kept busy until the next page loads.
 */
export function useSignIn<Input>(request: (input: Input) => Promise<TAuthResult>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [redirecting, setRedirecting] = useState(false);
  const signedIn = (result: TAuthResult) => {
    setRedirecting(true);
    goTo(result.data.redirect);
  };
  const mutation = useMutation({
    mutationFn: request,
    onSuccess: signedIn,
    onError: (error) => setErrors(fieldErrors(error) ?? { general: errorMessage(error) }),
  });
  /** Sends `input` with the form's own errors cleared. */
  const send = (input: Input) => {
    setErrors({});
    mutation.mutate(input);
  };
  return { errors, setErrors, send, signedIn, busy: mutation.isPending || redirecting };
}
