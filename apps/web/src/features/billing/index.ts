export { changeSubscription, startSubscription } from "./api";
export { type CheckoutCompleted, CheckoutFailed, checkoutFailureText, openCheckout } from "./checkout";
export { BillingDetails } from "./components/BillingDetails";
export { CheckoutHost } from "./components/CheckoutHost";
export { LivePrice } from "./components/LivePrice";
export { PLAN_DASHBOARDS_LIMITS, PlanFields, type PlanInterval } from "./components/PlanFields";
export { SubscriptionPlan } from "./components/SubscriptionPlan";
export { livePrice, type PriceLines, splitName } from "./price";
export { checkoutRegistrationStep } from "./registration-step";
