import { LoginForm } from "../features/auth";

/** /login */
export default function LoginScreen() {
  return <LoginForm />;
}
