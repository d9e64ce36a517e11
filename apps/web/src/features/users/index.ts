export { ConsentsForm } from "./components/ConsentsForm";
export { InviteUserModal } from "./components/InviteUserModal";
export { PasswordForm } from "./components/PasswordForm";
export { ProfileDetailsForm } from "./components/ProfileDetailsForm";
export { UsersTable } from "./components/UsersTable";
export { useUsers } from "./hooks";
export { usersQuery } from "./queries";
export { roleLabel } from "./roles";
