import { describe, expect, it } from "vitest";
import { closeInTurn } from "./close-in-turn";

/** A logger that keeps what was said. */
function keptLog() {
  const lines: { error: unknown; message: string }[] = [];
  return {
    lines,
    logger: { error: (fields: { err: unknown }, message: string) => void lines.push({ error: fields.err, message }) },
  };
}

describe("closing a process's parts in turn", () => {
  it("closes every part in order when each closes", async () => {
    const { lines, logger } = keptLog();
    const order: string[] = [];
    const part = (name: string) => [name, async () => void order.push(name)] as const;
    expect(await closeInTurn([part("HTTP server"), part("features"), part("infrastructure")], logger)).toBe(true);
    expect(order).toEqual(["HTTP server", "features", "infrastructure"]);
    expect(lines).toEqual([]);
  });

  it("closes the parts after one that failed, says which failed and why, and reports the failure", async () => {
    const { lines, logger } = keptLog();
    const order: string[] = [];
    const refused = new Error("the renderer's browser would not close");
    const closed = await closeInTurn(
      [
        ["HTTP server", async () => void order.push("HTTP server")],
        [
          "features",
          async () => {
            order.push("features");
            throw refused;
          },
        ],
        ["infrastructure", async () => void order.push("infrastructure")],
      ],
      logger,
    );
    expect(closed).toBe(false);
    expect(order).toEqual(["HTTP server", "features", "infrastructure"]);
    expect(lines).toEqual([{ error: refused, message: "closing the features failed" }]);
  });
});
