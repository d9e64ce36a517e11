import { ErrorScreen } from "../ui/ErrorScreen";

/** /404 (notFound) and every path the route table does not know. */
export default function NotFoundScreen() {
  return (
    <ErrorScreen
      code="404"
      title="Page not found"
      message="The page you are looking for does not exist or has moved. Check the address, or head back home."
    />
  );
}
