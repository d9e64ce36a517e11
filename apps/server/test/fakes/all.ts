import { accurankerFake } from "./accuranker";
import { ahrefsFake } from "./ahrefs";
import { baseFake } from "./base";
import { businessProfileFake } from "./business-profile";
import { facebookLoginFake } from "./facebook-login";
import { googleFake } from "./google";
import { googleAdsFake } from "./google-ads";
import { klaviyoFake } from "./klaviyo";
import { linkedinFake } from "./linkedin";
import { mailchimpFake } from "./mailchimp";
import { metaFake } from "./meta";
import { metaAdsFake } from "./meta-ads";
import { oidcFake } from "./oidc";
import { rankRangerFake } from "./rankranger";
import { salesflareFake } from "./salesflare";
import { searchConsoleFake } from "./search-console";
import { semrushFake } from "./semrush";
import { serankingFake } from "./seranking";
import { serpstatFake } from "./serpstat";
import { sheetsFake } from "./sheets";
import { type StripeFakeOptions, stripeFake } from "./stripe";
import { tiktokFake } from "./tiktok";
import { wooCommerceFake } from "./woocommerce";

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
