import { SocialSignInNotice } from "../features/auth";
import { IntroWelcome } from "../features/onboarding/components/IntroWelcome";

/** /intro */
export default function IntroScreen() {
  return (
    <>
      {/* A paid social sign-up that signed in an existing account lands here when its intro is not passed. */}
      <SocialSignInNotice />
      <IntroWelcome />
    </>
  );
}
