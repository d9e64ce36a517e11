import { Alert, Code, SimpleGrid } from "@mantine/core";

/**
 * Recovery codes, shown once: the user keeps them somewhere safe. Shared by the authenticator's set-up
 * (features/two-factor) and a first passkey's registration (features/passkeys).
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <Alert color="yellow" title="Save your recovery codes now">
      These codes are shown only once. Each one signs you in once if you lose your phone or your passkey.
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" mt="sm" data-testid="recovery-codes">
        {codes.map((code) => (
          <Code key={code} fz="md" ta="center">
            {code}
          </Code>
        ))}
      </SimpleGrid>
    </Alert>
  );
}
