import { IntroWelcome } from "../features/onboarding/components/IntroWelcome";

/** /intro */
export default function IntroScreen() {
  return <IntroWelcome />;
}
