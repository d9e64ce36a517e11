import { describe, expect, it } from "vitest";
import { type ConfirmationClock, waitForConfirmation } from "./confirmation";

/** A clock that moves only when slept on, recording each check's time. */
function testClock() {
  let now = 0;
  const clock: ConfirmationClock = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
  };
  return { clock, at: () => now };
}

describe("waitForConfirmation", () => {
  const timing = { everyMs: 3_000, forMs: 60_000 };

  it.each([
    { name: "confirmed at once (the webhook came first)", answers: [true], confirmed: true, checks: 1, last: 0 },
    {
      name: "confirmed on the third check (the server read the paid session)",
      answers: [false, false, true],
      confirmed: true,
      checks: 3,
      last: 6_000,
    },
    {
      name: "failing checks (Stripe down) count as not yet, then confirmed",
      answers: ["fail", "fail", true],
      confirmed: true,
      checks: 3,
      last: 6_000,
    },
    { name: "never confirmed: gives up after the time given", answers: [], confirmed: false, checks: 21, last: 60_000 },
  ])("$name", async ({ answers, confirmed, checks, last }) => {
    const { clock, at } = testClock();
    const times: number[] = [];
    const check = async () => {
      times.push(at());
      const answer = answers[times.length - 1] ?? false;
      if (answer === "fail") throw new Error("503");
      return answer === true;
    };
    expect(await waitForConfirmation(check, new AbortController().signal, timing, clock)).toBe(confirmed);
    expect(times).toHaveLength(checks);
    expect(times.at(-1)).toBe(last);
  });

  it("stops asking once the page is left", async () => {
    const { clock } = testClock();
    const leave = new AbortController();
    let checks = 0;
    const check = async () => {
      checks += 1;
      if (checks === 2) leave.abort();
      return false;
    };
    expect(await waitForConfirmation(check, leave.signal, timing, clock)).toBe(false);
    expect(checks).toBe(2);
  });
});
