import { Box } from "@mantine/core";
import { Outlet } from "react-router";

/** No chrome at all (print view). */
export function BareLayout() {
  return (
    <Box p="md" bg="white" mih="100vh">
      <Outlet />
    </Box>
  );
}
