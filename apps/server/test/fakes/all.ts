import { accurankerFake } from "../../src/connectors/accuranker/fake";
import { ahrefsFake } from "../../src/connectors/ahrefsV3/fake";
import { baseFake } from "../../src/connectors/baseMe/fake";
import { metaAdsFake } from "../../src/connectors/facebookAds/fake";
import { googleFake } from "../../src/connectors/google/fake";
import { googleAdsFake } from "../../src/connectors/googleAds/fake";
import { businessProfileFake } from "../../src/connectors/googleMyBusiness/fake";
import { sheetsFake } from "../../src/connectors/googleSheets/fake";
import { klaviyoFake } from "../../src/connectors/klaviyo/fake";
import { linkedinFake } from "../../src/connectors/linkedin/fake";
import { mailchimpFake } from "../../src/connectors/mailchimp/fake";
import { metaFake } from "../../src/connectors/meta/fake";
import { rankRangerFake } from "../../src/connectors/rankRanger/fake";
import { salesflareFake } from "../../src/connectors/salesflare/fake";
import { searchConsoleFake } from "../../src/connectors/searchConsole/fake";
import { semrushFake } from "../../src/connectors/semrush/fake";
import { serankingFake } from "../../src/connectors/seranking/fake";
import { serpstatFake } from "../../src/connectors/serpstat/fake";
import { tiktokFake } from "../../src/connectors/tiktok/fake";
import { wooCommerceFake } from "../../src/connectors/woocommerce/fake";
import { facebookLoginFake } from "./facebook-login";
import { oidcFake } from "./oidc";
import { type StripeFakeOptions, stripeFake } from "./stripe";

/** Every provider's fake part, wired to each other (Google's siblings share its tokens, Meta Ads Meta's). */
export function allFakes(options: { stripe?: StripeFakeOptions } = {}) {
  const google = googleFake();
  const meta = metaFake();
  return {
    google,
    ads: googleAdsFake(google.state),
    profile: businessProfileFake(google.state),
    sheets: sheetsFake(google.state),
    searchConsole: searchConsoleFake(google.state),
    meta,
    metaAds: metaAdsFake(meta.state),
    ahrefs: ahrefsFake(),
    semrush: semrushFake(),
    serpstat: serpstatFake(),
    seranking: serankingFake(),
    rankranger: rankRangerFake(),
    salesflare: salesflareFake(),
    woocommerce: wooCommerceFake(),
    klaviyo: klaviyoFake(),
    linkedin: linkedinFake(),
    base: baseFake(),
    accuranker: accurankerFake(),
    tiktok: tiktokFake(),
    mailchimp: mailchimpFake(),
    // Social sign-in: Google and LinkedIn over OpenID Connect, Facebook Login on the Meta part.
    googleLogin: oidcFake("google"),
    linkedinLogin: oidcFake("linkedin", { pkce: false }),
    facebookLogin: facebookLoginFake(meta.state),
    stripe: stripeFake(options.stripe),
  };
}

/** The variables pointing a server at the fakes on `origin` (the browser tests' server reads them). */
export function allFakesEnv(origin: string): Record<string, string> {
  return Object.assign({}, ...Object.values(allFakes()).map((part) => part.env(origin)));
}
