import { Center } from "@mantine/core";
import { AppLoader } from "../ui/AppLoader";

/** Shown while the first screen's module loads. */
export function BootLoader() {
  return (
    <Center mih="100vh">
      <AppLoader size="l" />
    </Center>
  );
}
