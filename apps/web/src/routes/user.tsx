import { Alert, Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useParams } from "react-router";
import { usePageTitle } from "../app/page-title";
import { PasskeysSection } from "../features/passkeys";
import { useCurrentUser } from "../features/session/hooks";
import { SignedInSessions } from "../features/sessions";
import { ProfileTwoFactorLink } from "../features/two-factor";
import { ConsentsForm, PasswordForm, ProfileDetailsForm, roleLabel, useUsers } from "../features/users";
import { errorMessage } from "../lib/api";
import { PageLoader } from "../ui/AppLoader";
import { IconAlert } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";
import { UserAvatar } from "../ui/UserAvatar";
import NotFoundScreen from "./not-found";

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <Stack gap={4} mb="lg">
        <Title order={3}>{title}</Title>
        <Text size="sm" c="dimmed">
          {description}
        </Text>
      </Stack>
      {children}
    </Card>
  );
}

/** /users/:userId (user): one's own profile, or (admins) a team member's. */
export default function UserScreen() {
  const { userId = "" } = useParams();
  const current = useCurrentUser();
  const isSelf = current?.id === userId;
  const isAdmin = current?.roleName === "admin";
  const users = useUsers(!isSelf && isAdmin);
  const user = isSelf ? current : users.data?.find((u) => u.id === userId);
  usePageTitle(user?.name);

  if (!current) return null;
  if (!user) {
    if (users.isPending) return <PageLoader />;
    if (users.isError) return <Alert color="red">{errorMessage(users.error)}</Alert>;
    return <NotFoundScreen />;
  }
  const consented = user.termsConsent && user.ageConsent;
  const consentsSection = (
    <Section title="Consents" description="Needed to use the app.">
      <ConsentsForm key={`${user.termsConsent}-${user.ageConsent}`} user={user} />
    </Section>
  );

  return (
    <>
      <PageHeader
        eyebrow={isSelf ? "Your profile" : "Team member"}
        title={
          <Group gap="md" wrap="nowrap">
            <UserAvatar user={user} size={48} />
            <span>{user.name}</span>
          </Group>
        }
        description={user.email}
        actions={
          <Group gap="xs">
            <Badge color={user.roleName === "admin" ? "brand" : "gray"}>{roleLabel(user.roleName)}</Badge>
            {user.active ? null : <Badge color="yellow">Invited</Badge>}
          </Group>
        }
      />
      <Stack gap="lg">
        {isSelf && !consented ? (
          <Alert color="orange" icon={<IconAlert />} title="One more thing before you start">
            Please agree to the Terms and Conditions and confirm your age below to use the app.
          </Alert>
        ) : null}
        {isSelf && !consented ? consentsSection : null}
        <Section title="Profile" description="Name, e-mail and the time zone your dashboards and reports use.">
          <ProfileDetailsForm key={user.id} user={user} canEditRole={isAdmin && !isSelf} />
        </Section>
        {isSelf ? (
          <Section title="Password" description="Choose a new password for logging in.">
            <PasswordForm user={user} />
          </Section>
        ) : null}
        {isSelf ? (
          <Section title="Two-factor sign-in" description="A code from your phone after your password.">
            <ProfileTwoFactorLink />
          </Section>
        ) : null}
        {isSelf ? (
          <Section
            title="Passkeys"
            description="Log in with your fingerprint, face or device PIN instead of your password."
          >
            <PasskeysSection user={user} />
          </Section>
        ) : null}
        {isSelf ? (
          <Section
            title="Signed-in sessions"
            description="Where your account is signed in. Sign out any you do not recognise."
          >
            <SignedInSessions />
          </Section>
        ) : null}
        {isSelf && consented ? consentsSection : null}
      </Stack>
    </>
  );
}
