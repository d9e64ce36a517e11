import { PasskeysSection } from "../features/passkeys";
import { useCurrentUser } from "../features/session/hooks";
import { TwoFactorSettings } from "../features/two-factor";
import { PageHeader } from "../ui/PageHeader";

/** /two-factor/setup: set up or manage two-factor sign-in (the only page while a company requires it). */
export default function TwoFactorSetupScreen() {
  const user = useCurrentUser();
  return (
    <>
      <PageHeader title="Two-factor sign-in" description="A code from your phone after your password." />
      <TwoFactorSettings passkeys={user ? <PasskeysSection user={user} /> : null} />
    </>
  );
}
