import { RegisterForm } from "../features/auth";

/** /register?source=&dashboards=&annual&coupons= */
export default function RegisterScreen() {
  return <RegisterForm />;
}
