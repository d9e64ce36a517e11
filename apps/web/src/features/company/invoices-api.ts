import { ROUTE_LINES, routePath, splitRouteLine, type TOrder } from "@app/core";
import { ApiError, apiHeaders, call } from "../../lib/api";

/** GET /api/orders: the company's invoices, newest first. */
export async function fetchOrders(): Promise<TOrder[]> {
  return (await call("ordersList")).data;
}

/**
 * GET /api/orders/:id/pdf, saved by the browser under the invoice's number. Not `call`: the answer is
 * a file; the same headers go with it (the API answers only the app's own requests).
 */
export async function downloadInvoice(order: Pick<TOrder, "id" | "number">): Promise<void> {
  const path = routePath(splitRouteLine(ROUTE_LINES.orderPdf).path, { id: order.id });
  const response = await fetch(path, { headers: apiHeaders(), credentials: "same-origin" });
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => null));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = `${order.number}.pdf`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
