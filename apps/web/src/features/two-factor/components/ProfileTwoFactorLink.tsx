import { Button, Group, Text } from "@mantine/core";
import { Link } from "react-router";

/** The profile's entry to the two-factor page (set up, new recovery codes, turn off). */
export function ProfileTwoFactorLink() {
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm">Ask for a code from your phone after your password.</Text>
      <Button component={Link} to="/two-factor/setup" variant="default">
        Manage two-factor sign-in
      </Button>
    </Group>
  );
}
