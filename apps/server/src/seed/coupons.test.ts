import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { describeEachDb, type TestEnv } from "../../test/harness";
import { runCouponsCli } from "./coupons";

/** Runs the CLI as an operator would, collecting what it prints. */
async function cli(env: TestEnv, ...args: string[]) {
  const out: string[] = [];
  const errors: string[] = [];
  const code = await runCouponsCli(
    args,
    env.ctx.db,
    { out: (l) => out.push(l), error: (l) => errors.push(l) },
    env.dataDir,
  );
  return { code, out: out.join("\n"), error: errors.join("\n") };
}

/** docs/operations.md "Coupons": the operator's CLI (add, list, import), with errors in plain words. */
describeEachDb("coupons CLI", (env) => {
  it("adds a coupon with its options and lists it", async () => {
    const added = await cli(
      env(),
      "add",
      "Spring20",
      "price.discount",
      "20",
      "--name",
      "Spring sale",
      "--max",
      "100",
      "--expires",
      "2027-04-01",
    );
    expect(added).toMatchObject({ code: 0, error: "" });
    expect(added.out).toContain("Added Spring20");
    const listed = await cli(env(), "list");
    expect(listed.out).toContain("Spring20\tprice.discount\t20\tSpring sale\t0 of 100 used\texpires 2027-04-01");
  });

  it("refuses bad input in plain words, and a code that exists in any case", async () => {
    const cases: Array<[string[], string]> = [
      [
        ["add", "X1", "price.percent", "10"],
        "type: The type must be one of price.discount, price.fixed, dashboards.bonus, ltd.appsumo.",
      ],
      [["add", "X2", "price.discount", "120"], "value: A percent discount is at most 100."],
      [["add", "X3", "price.fixed", "2.5"], "value: A fixed discount is a whole number of cents."],
      [["add", "X4", "dashboards.bonus", "ten"], "value: The value must be a number above 0."],
      [["add", "X5", "dashboards.bonus", "0"], "value: The value must be a number above 0."],
      [["add", "bad code", "price.discount", "10"], "code: A code uses only letters, digits, - and _."],
      [["add", "X6", "price.discount", "10", "--expires", "2027-02-30"], "expires: The expiry must be a real date."],
      [
        ["add", "X7", "price.discount", "10", "--expires", "01/02/2027"],
        "expires: The expiry must be a date written YYYY-MM-DD.",
      ],
      [["add", "X8", "price.discount", "10", "--max", "0"], "max: The maximum must be a whole number of at least 1."],
    ];
    for (const [args, message] of cases) {
      const result = await cli(env(), ...args);
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.error, args.join(" ")).toContain(message);
    }
    expect((await cli(env(), "add", "Dup", "price.discount", "10")).code).toBe(0);
    const dup = await cli(env(), "add", "DUP", "price.fixed", "100");
    expect(dup).toMatchObject({ code: 1, error: "A coupon with the code DUP already exists." });
    // Nothing bad was saved.
    const listed = (await cli(env(), "list")).out;
    for (const code of ["X1", "X2", "X3", "X4", "X5", "X6", "X7", "X8"]) expect(listed).not.toContain(`${code}\t`);
  });

  it("wrong usage prints the usage (exit 2)", async () => {
    for (const args of [[], ["add", "ONLY"], ["remove", "X"], ["add", "A", "price.discount", "1", "--colour", "red"]]) {
      const result = await cli(env(), ...args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.error).toContain("npm run coupons -- add CODE TYPE VALUE");
    }
  });

  it("imports a JSON list: all or nothing, naming the bad entries; a second import updates", async () => {
    const file = path.join(env().dataDir, "coupons.json");
    fs.writeFileSync(
      file,
      JSON.stringify([
        { code: "IMP-A", type: "dashboards.bonus", value: 5 },
        { code: "IMP-B", type: "price.discount", value: 500 },
        { code: "imp-a", type: "price.fixed", value: 100 },
        { code: "IMP-C", type: "price.fixed", value: 100, colour: "red" },
      ]),
    );
    const refused = await cli(env(), "import", "coupons.json");
    expect(refused.code).toBe(1);
    expect(refused.error.split("\n")).toEqual([
      "Entry 2 (IMP-B): value: A percent discount is at most 100.",
      "Entry 3 (imp-a): The code imp-a is in the file twice.",
      "Entry 4 (IMP-C): Unknown field(s): colour.",
    ]);
    expect((await cli(env(), "list")).out).not.toContain("IMP-A");

    fs.writeFileSync(
      file,
      JSON.stringify([
        { code: "IMP-A", type: "dashboards.bonus", value: 5, max: 10 },
        { code: "IMP-B", type: "price.discount", value: 15, name: "Fifteen", expires: "2027-01-01" },
      ]),
    );
    expect(await cli(env(), "import", file)).toMatchObject({
      code: 0,
      out: "Added 2 coupon(s): IMP-A, IMP-B.\nUpdated 0 coupon(s).",
    });
    fs.writeFileSync(file, JSON.stringify([{ code: "imp-a", type: "dashboards.bonus", value: 7 }]));
    expect((await cli(env(), "import", file)).out).toBe("Added 0 coupon(s).\nUpdated 1 coupon(s): imp-a.");
    const listed = (await cli(env(), "list")).out;
    expect(listed).toContain("imp-a\tdashboards.bonus\t7\timp-a\t0 used\tno expiry");
    expect(listed).toContain("IMP-B\tprice.discount\t15\tFifteen\t0 used\texpires 2027-01-01");

    for (const [content, message] of [
      ["{not json", "is not valid JSON."],
      [JSON.stringify({ code: "X" }), "The file must hold a JSON list of coupons."],
    ]) {
      fs.writeFileSync(file, content);
      const result = await cli(env(), "import", file);
      expect(result.code).toBe(1);
      expect(result.error).toContain(message);
    }
    expect((await cli(env(), "import", "missing.json")).error).toContain("Cannot read");
  });
});
