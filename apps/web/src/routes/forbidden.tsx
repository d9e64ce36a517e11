import { ErrorScreen } from "../ui/ErrorScreen";

/** /403 (forbidden) */
export default function ForbiddenScreen() {
  return (
    <ErrorScreen
      code="403"
      title="You don't have access to this page"
      message="Your account is not allowed to open it. If you think you should be, ask an admin of your company."
    />
  );
}
