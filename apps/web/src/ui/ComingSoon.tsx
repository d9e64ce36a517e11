import { Badge, Card, EmptyState } from "@mantine/core";
import type { ReactNode } from "react";
import { IconSparkles } from "./icons";

/** Honest placeholder for a screen whose feature is not built yet: says what will be here, shows no fake data. */
export function ComingSoon({ children, icon }: { children: ReactNode; icon?: ReactNode }) {
  return (
    <Card py={56}>
      <EmptyState
        variant="light"
        icon={icon ?? <IconSparkles size={26} />}
        title={
          <Badge size="lg" variant="light">
            Coming soon
          </Badge>
        }
        description={children}
        styles={{ description: { maxWidth: 520 } }}
      />
    </Card>
  );
}
