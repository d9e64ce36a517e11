import { couponEffects, type ExpiringSource, globalMessagesFor, SOCIAL_PROVIDERS, type TPageData } from "@app/core";
import type { AppContext } from "../../context";
import type { AuthService, AuthState } from "../auth/service";
import type { CompaniesService } from "../companies/service";
import { presentUser } from "../users/presenter";

/** Invalid-source check registered by the sources feature (banner 125). */
export type InvalidSourceCheck = (companyId: string) => Promise<boolean>;

/** Builds the page data the SPA boots from (HTML and GET /api/page-data carry the same JSON). */
export function pageDataService(
  ctx: AppContext,
  auth: AuthService,
  companies: CompaniesService,
  hasInvalidSource: InvalidSourceCheck = async () => false,
  expiringSources: (companyId: string) => Promise<ExpiringSource[]> = async () => [],
  twoFactorSetupRequired: (state: AuthState) => Promise<boolean> = async () => false,
) {
  return {
    async build(state: AuthState | null, guestId: string | null): Promise<TPageData> {
      const identification = auth.identificationFor(state?.sessionId ?? null, guestId);
      const { browserDsn, sampleRate } = ctx.config.errorReporting;
      const config = {
        maxPdfWidgets: ctx.config.maxPdfWidgets,
        // Stripe is configured (STRIPE_SECRET_KEY): registration takes the card before creating the account.
        paymentEnabled: ctx.config.stripe !== null,
        stripeJsUrl: ctx.config.stripe?.jsUrl ?? null,
        socialProviders: SOCIAL_PROVIDERS.filter((provider) => ctx.config.socialLogin[provider] !== null),
        errorReporting: browserDsn ? { dsn: browserDsn, sampleRate, environment: ctx.config.env } : null,
      };
      if (!state) {
        return {
          user: null,
          company: null,
          session: null,
          identification,
          messages: [],
          siteTitle: ctx.config.siteTitle,
          onboarding: null,
          config,
        };
      }
      const user = presentUser(state.user);
      const company = await companies.get(state.company.id);
      // Banner 130 is for admins: they are the ones who can reconnect a source.
      const messages = globalMessagesFor(
        {
          ...company,
          hasInvalidSource: await hasInvalidSource(company.id),
          expiringSources: user.roleName === "admin" ? await expiringSources(company.id) : [],
        },
        ctx.clock.now(),
      );
      return {
        user,
        company,
        session: {
          userId: user.id,
          termsConsent: user.termsConsent,
          ageConsent: user.ageConsent,
          roleName: user.roleName,
          timezone: user.timezone,
          dates: state.data.dates,
          authorization: state.data.authorization,
          twoFactorSetupRequired: await twoFactorSetupRequired(state),
        },
        identification,
        messages,
        siteTitle: company.siteTitle,
        onboarding: {
          flow: state.user.onboarding_flow === "mc" ? "mc" : "dashboard",
          step: state.user.onboarding_step,
          source: state.user.onboarding_source,
          // A lifetime deal keeps the dashboard flow (docs/product.md §2), whatever was answered.
          forcedFlow: couponEffects(company.coupons).forcedFlow,
        },
        config,
      };
    },
  };
}

export type PageDataService = ReturnType<typeof pageDataService>;
