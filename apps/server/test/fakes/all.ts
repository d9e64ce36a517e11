import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FakeMeta } from "../../src/connectors/meta/fake";
import type { FakeEntry, FakePart } from "./app";
import { facebookLoginFake } from "./facebook-login";
import { oidcFake } from "./oidc";
import { type StripeFakeOptions, stripeFake } from "./stripe";

/**
 * The provider fakes, found where their connectors live: every `fake.ts` under src/connectors (a
 * connector's folder or its family's) exports its `fakeEntry`, so adding a connector with a fake
 * touches nothing here. Loaded once, when this module is.
 */
const CONNECTORS_DIR = path.resolve(import.meta.dirname, "../../src/connectors");
const ENTRIES: FakeEntry[] = [];
for (const folder of fs.readdirSync(CONNECTORS_DIR).sort()) {
  const file = path.join(CONNECTORS_DIR, folder, "fake.ts");
  if (!fs.existsSync(file)) continue;
  const module = (await import(pathToFileURL(file).href)) as { fakeEntry?: FakeEntry };
  if (!module.fakeEntry) throw new Error(`${path.relative(CONNECTORS_DIR, file)} exports no fakeEntry`);
  ENTRIES.push(module.fakeEntry);
}

/** Every provider's fake part, wired to each other (Google's siblings share its tokens, Meta Ads Meta's). */
export function allFakes(options: { stripe?: StripeFakeOptions } = {}): Record<string, FakePart<unknown>> {
  const parts: Record<string, FakePart<unknown>> = {};
  // A part is built after the part it builds on (a family's), in folder order otherwise.
  const pending = [...ENTRIES];
  while (pending.length > 0) {
    const next = pending.findIndex((entry) => !entry.after || entry.after in parts);
    if (next < 0) throw new Error(`fakes built on a missing part: ${pending.map((entry) => entry.name).join(", ")}`);
    const [entry] = pending.splice(next, 1);
    if (entry.name in parts) throw new Error(`two fakes are named ${entry.name}`);
    parts[entry.name] = entry.build(parts);
  }
  return {
    ...parts,
    // Social sign-in: Google and LinkedIn over OpenID Connect, Facebook Login on the Meta part.
    googleLogin: oidcFake("google"),
    linkedinLogin: oidcFake("linkedin", { pkce: false }),
    facebookLogin: facebookLoginFake(parts.meta.state as FakeMeta),
    stripe: stripeFake(options.stripe),
  };
}

/** The variables pointing a server at the fakes on `origin` (the browser tests' server reads them). */
export function allFakesEnv(origin: string): Record<string, string> {
  return Object.assign({}, ...Object.values(allFakes()).map((part) => part.env(origin)));
}
