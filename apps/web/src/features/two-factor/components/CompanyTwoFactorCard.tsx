import { Alert, Card, Stack, Switch, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, fieldErrors } from "../../../lib/api";
import { setCompanyRequirement, twoFactorKey, twoFactorStatus } from "../api";

/** Company settings: require two-factor sign-in of every member (admins; they must have it on first). */
export function CompanyTwoFactorCard() {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: twoFactorKey, queryFn: twoFactorStatus });
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: setCompanyRequirement,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorKey }),
    onError: (failure) => setError(fieldErrors(failure)?.required ?? errorMessage(failure)),
  });
  return (
    <Card>
      <Stack gap="sm">
        <Title order={3}>Two-factor sign-in</Title>
        <Text size="sm" c="dimmed">
          When required, members who have not set up an authenticator app are led to do so at their next step and can do
          nothing else until they have.
        </Text>
        {error ? <Alert color="red">{error}</Alert> : null}
        <Switch
          label="Require two-factor sign-in for every member"
          // While the change is on its way the switch shows what was asked; the server's answer follows.
          checked={mutation.isPending ? mutation.variables : (status.data?.companyRequires ?? false)}
          disabled={status.isPending || mutation.isPending}
          onChange={(event) => {
            setError(null);
            mutation.mutate(event.currentTarget.checked);
          }}
        />
      </Stack>
    </Card>
  );
}
