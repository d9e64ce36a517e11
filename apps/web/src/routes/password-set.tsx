import { useParams } from "react-router";
import { SetPasswordForm } from "../features/auth";

/** /password/set/:token (link of the invitation e-mail) */
export default function PasswordSetScreen() {
  const { token = "" } = useParams();
  return <SetPasswordForm token={token} />;
}
