import { SecondStepForm } from "../features/two-factor";

/** /login/two-factor */
export default function LoginTwoFactorScreen() {
  return <SecondStepForm />;
}
