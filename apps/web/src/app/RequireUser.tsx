import type { ReactNode } from "react";
import { Navigate } from "react-router";
import { useCurrentUser } from "../features/session/hooks";

/** For screens guard 1 lets guests reach by name but that still need a user (dashboards list and create). */
export function RequireUser({ children }: { children: ReactNode }) {
  const user = useCurrentUser();
  return user ? children : <Navigate to="/login" replace />;
}
