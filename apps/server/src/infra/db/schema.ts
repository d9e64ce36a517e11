/**
 * Database tables. Portable types only, so one set of migrations serves SQLite and
 * PostgreSQL: ids are text, booleans are integers 0/1, timestamps are ISO-8601 text,
 * JSON is text.
 */
export interface CompaniesTable {
  id: string;
  name: string;
  domain: string | null;
  logo: string | null;
  phone: string | null;
  site_title: string | null;
  state: string;
  expires_at: string | null;
  services_dashboards: number;
  services_bonus_dashboards: number;
  subscription_id: string | null;
  subscription_interval: number | null;
  discount: number;
  cancellation: string | null;
  created_at: string;
  /** Custom host of the company's shared dashboards (lower case), and when its CNAME was found (null: not yet). */
  domain_cname: string | null;
  domain_verified_at: string | null;
  /** Billing (migration 016): the Stripe customer, the next charge, when the expiry job saw service end. */
  stripe_customer_id: string | null;
  next_charge_at: string | null;
  service_ended_at: string | null;
  /**
   * What invoices are made out to: the street lines (one per line) and VAT or tax number (migration
   * 021); the billing name, postal code, city and ISO country code (migration 025).
   */
  billing_address: string | null;
  vat_id: string | null;
  billing_name: string | null;
  billing_postal_code: string | null;
  billing_city: string | null;
  billing_country: string | null;
  /** The company's IANA zone (migration 024): the browser's at registration, UTC before. */
  timezone: string;
  /**
   * 1: every member must have a second factor (migration 028). Optional here only so the rows written
   * before it (registration, the factories) need not name it: the column defaults to 0.
   */
  require_two_factor?: number;
}

export interface UsersTable {
  id: string;
  company_id: string;
  name: string;
  email: string;
  password_hash: string | null;
  role: string;
  creator: number;
  avatar: string | null;
  terms_consent: number;
  age_consent: number;
  intro_passed: number;
  timezone: string;
  onboarding_flow: string;
  onboarding_step: number;
  /** The intro questionnaire's answer (an ONBOARDING_SOURCES value); null until answered. */
  onboarding_source: string | null;
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token, so a leaked table does not leak sessions. */
  id: string;
  user_id: string;
  company_id: string;
  data: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  /** What names the session outside the server (the profile's list); the token's hash never leaves it. */
  public_id: string;
  /** The browser's User-Agent and client address of its latest recorded request (null: none yet). */
  user_agent: string | null;
  ip_address: string | null;
}

export interface InvitationsTable {
  token_hash: string;
  user_id: string;
  company_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface SourcesTable {
  id: string;
  company_id: string;
  /** Connector key (docs/product.md §3 Source.name). */
  name: string;
  account: string | null;
  credentials: string | null;
  /** JSON list of {value, label}. */
  properties: string;
  invalid: number;
  created_at: string;
  /**
   * When the login ends for good (ISO instant; a Meta long-lived token), copied from the sealed
   * credentials by the connector's OAuth adapter; null when it does not expire or refreshes itself.
   */
  credentials_expire_at?: string | null;
  /** The `credentials_expire_at` the company's admins were mailed about (once per expiry). */
  expiry_warned_for?: string | null;
}

export interface FilesTable {
  id: string;
  company_id: string;
  kind: string;
  path: string;
  original_name: string;
  size: number;
  created_at: string;
}

export interface DashboardsTable {
  id: string;
  company_id: string;
  permalink: string;
  name: string;
  active: number;
  range_type: string;
  start_date: string | null;
  end_date: string | null;
  compare_start_date: string | null;
  compare_end_date: string | null;
  styles: string;
  defaults: string;
  widgets: string;
  hidden_date_selector: number;
  footer: string | null;
  /** The language of its client-facing pages (a tag of core's LANGUAGES, or the pseudo-locale). */
  language: string;
  password_hash: string | null;
  /** Key part of the dashboard's signed embed links; replaced to revoke them all (null: none made yet). */
  embed_secret: string | null;
  locked_by: string | null;
  locked_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface JobsTable {
  id: string;
  name: string;
  key: string | null;
  /** JSON text of the validated payload. */
  payload: string;
  /** waiting | delayed | active | completed | failed */
  state: string;
  attempts: number;
  max_attempts: number;
  run_at: string;
  /** The runner holding an active job, and until when; an expired lease means its process died. */
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface JobSchedulesTable {
  name: string;
  next_run_at: string;
  pattern: string;
  updated_at: string;
}

export interface Database {
  companies: CompaniesTable;
  users: UsersTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
  sources: SourcesTable;
  files: FilesTable;
  dashboards: DashboardsTable;
  jobs: JobsTable;
  job_schedules: JobSchedulesTable;
  ops_probe_runs: OpsProbeRunsTable;
  automatic_reports: AutomaticReportsTable;
  pdf_exports: PdfExportsTable;
  report_deliveries: ReportDeliveriesTable;
  company_senders: CompanySendersTable;
  provider_results: ProviderResultsTable;
  campaigns: CampaignsTable;
  campaign_domains: CampaignDomainsTable;
  domain_metric_days: DomainMetricDaysTable;
  domain_metric_coverage: DomainMetricCoverageTable;
  campaign_alerts: CampaignAlertsTable;
  campaign_alert_settings: CampaignAlertSettingsTable;
  campaign_alert_digests: CampaignAlertDigestsTable;
  widget_alerts: WidgetAlertsTable;
  user_identities: UserIdentitiesTable;
  orders: OrdersTable;
  payment_events: PaymentEventsTable;
  coupons: CouponsTable;
  company_coupons: CompanyCouponsTable;
  user_two_factor: UserTwoFactorTable;
  user_recovery_codes: UserRecoveryCodesTable;
  pending_sign_ins: PendingSignInsTable;
  passkeys: PasskeysTable;
  passkey_challenges: PasskeyChallengesTable;
  audit_events: AuditEventsTable;
}

export interface ProviderResultsTable {
  source_id: string;
  query_key: string;
  company_id: string;
  /** yyyy-mm-dd: the last day of the range the result covers. */
  range_end: string;
  /** JSON of the connector's Table. */
  table_json: string;
  fetched_at: string;
}

export interface OpsProbeRunsTable {
  id: string;
  job_key: string;
  process: string;
  started_at: string;
  finished_at: string | null;
}

/** docs/product.md §3 automatic report; `detail` is text for both periods (a WEEK's weekday as its digit). */
export interface AutomaticReportsTable {
  id: string;
  company_id: string;
  dashboard_id: string;
  /** Comma-separated addresses. */
  recipients: string;
  period: string;
  detail: string;
  hour: number;
  minute: number;
  timezone: string;
  date_range: string;
  with_pdf: number;
  with_preview: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One PDF export request and its outcome (features/exports). */
export interface PdfExportsTable {
  key: string;
  company_id: string;
  dashboard_id: string;
  state: "pending" | "ready" | "failed";
  /** Storage path of the finished file. */
  file: string | null;
  filename: string;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

/** One sending of an automatic report: a scheduled slot or a manual "send now" (features/automatic-reports). */
export interface ReportDeliveriesTable {
  id: string;
  company_id: string;
  report_id: string;
  /** The slot's ISO instant, or `manual:<ISO instant>`; unique per report. */
  slot: string;
  scheduled_for: string;
  late: number;
  manual: number;
  state: "pending" | "sent" | "failed";
  attempts: number;
  error: string | null;
  finished_at: string | null;
  created_at: string;
}

/** A company's own sender address and its DKIM key (features/sender). */
export interface CompanySendersTable {
  company_id: string;
  address: string;
  domain: string;
  selector: string;
  /** Sealed with APP_KEY (infra/security seal). */
  dkim_private: string;
  dkim_public: string;
  /** JSON of SenderCheck[]. */
  checks: string;
  verified: number;
  checked_at: string | null;
  created_at: string;
}

/** A Mission Control group ("campaign" in the API; features/campaigns). */
export interface CampaignsTable {
  id: string;
  company_id: string;
  name: string;
  created_by: string | null;
  /** JSON of the group's overrides of the company's alert rules; null = the company's defaults. */
  alert_settings: string | null;
  /** Where its domains' metrics come from (core's CAMPAIGN_METRICS_SOURCES); a later version may store more. */
  metrics_source: string;
  created_at: string;
  updated_at: string;
}

/** A domain a group tracks. */
export interface CampaignDomainsTable {
  id: string;
  company_id: string;
  campaign_id: string;
  /** The normalised host (core's normaliseDomain). */
  domain: string;
  label: string | null;
  /** ISO instant until which its alerts are hidden (snoozed for a week); null when not snoozed. */
  alerts_snoozed_until: string | null;
  created_at: string;
  /** ISO instant of the last alert evaluation (a snooze ending after it makes the next one decide afresh). */
  alerts_evaluated_at: string | null;
}

/** One day's value of one metric of a tracked domain, from one provider (append-only). */
export interface DomainMetricDaysTable {
  company_id: string;
  campaign_domain_id: string;
  metric: string;
  /** yyyy-mm-dd */
  day: string;
  value: number;
  provider: string;
  fetched_at: string;
}

/** An alert on a tracked domain: open on the first failing evaluation, resolved after two passing ones. */
export interface CampaignAlertsTable {
  id: string;
  company_id: string;
  campaign_domain_id: string;
  rule: string;
  /** At most one open alert per key (a partial unique index). */
  dedupe_key: string;
  state: "open" | "resolved";
  opened_at: string;
  resolved_at: string | null;
  reason: string;
  passing_count: number;
  /** The catalogue metric the rule watches. */
  metric: string | null;
  /** JSON of core's AlertObservation at the last evaluation. */
  observed: string | null;
  /** The as-of day of the last evaluation that counted (a pass counts once per day of data). */
  evaluated_day: string | null;
}

/** A company's Mission Control alert settings (missing row: the default rules, a daily digest). */
export interface CampaignAlertSettingsTable {
  company_id: string;
  /** JSON of core's TAlertRule[]; null = DEFAULT_ALERT_RULES. */
  rules: string | null;
  digest: string;
  updated_at: string;
}

/** A digest mailed for one period: written before sending, so a period goes out once. */
export interface CampaignAlertDigestsTable {
  company_id: string;
  period: string;
  alert_count: number;
  sent_at: string;
}

/** A domain its group's source does not cover (docs/decisions.md, "Mission Control metric sources"), with what to connect; no row: covered. */
export interface DomainMetricCoverageTable {
  company_id: string;
  campaign_domain_id: string;
  provider: string;
  /** Not covered: "Connect Search Console, Google Analytics 4, Ahrefs or a rank tracker for acme.com". */
  hint: string | null;
  /** Covered: the provider's fingerprint of what covers it (which source gives which metrics). */
  plan: string | null;
  checked_at: string;
}

/** A rule on one metric of one widget and the state of its alert (features/widget-alerts). */
export interface WidgetAlertsTable {
  id: string;
  company_id: string;
  dashboard_id: string;
  widget_id: string;
  /** The column key in the widget's table: `<instance prefix>.<metric>`. */
  metric: string;
  condition: string;
  value: number | null;
  direction: string;
  /** Comma-separated addresses. */
  recipients: string;
  paused: number;
  snoozed_until: string | null;
  created_by: string | null;
  state: "open" | "resolved" | null;
  opened_at: string | null;
  resolved_at: string | null;
  passes: number;
  /** When the current opening was mailed; null while it still owes its one mail. */
  notified_at: string | null;
  last_value: number | null;
  last_message: string | null;
  last_evaluated_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A coupon the operator created (features/coupons, migration 017). */
export interface CouponsTable {
  /** core couponKey(code): trimmed, lower case; one coupon whatever the case. */
  code_key: string;
  code: string;
  type: string;
  value: number;
  name: string;
  max_redemptions: number | null;
  redemptions: number;
  expires_at: string | null;
  created_at: string;
}

/** A coupon a company has (never twice: the primary key is company and code key). */
export interface CompanyCouponsTable {
  company_id: string;
  coupon_key: string;
  /** 1, 2, 3… in the order the company's coupons were applied. */
  position: number;
  applied_at: string;
}

/** One provider invoice of a company (features/billing, migration 016); `number` is INV-<year>-<sequence>. */
export interface OrdersTable {
  id: string;
  company_id: string;
  sequence: number;
  number: string;
  /** The provider's invoice id (or the checkout session's when it carries none). */
  provider_ref: string;
  period_start: string | null;
  period_end: string | null;
  dashboards: number;
  interval: number;
  amount_cents: number;
  currency: string;
  /** paid | failed | refunded */
  status: string;
  /** JSON list of the invoice's lines (migration 023); null for older orders. */
  lines: string | null;
  /** JSON list of the tax the provider computed (migration 025, features/billing/tax-lines.ts); null: none known. */
  tax_lines: string | null;
  /**
   * Who the invoice is from and to as it was issued: JSON `{name, addressLines, vatId, country}`
   * (migration 026, features/billing/invoice-parties.ts); null for orders recorded before.
   */
  seller_party: string | null;
  buyer_party: string | null;
  /** 1 when the reverse charge applied to the order as issued, 0 when not; null for orders recorded before. */
  reverse_charge: number | null;
  created_at: string;
  updated_at: string;
}

/** A provider event already handled (webhook idempotency). */
export interface PaymentEventsTable {
  event_id: string;
  type: string;
  company_id: string | null;
  received_at: string;
}

/** A provider account that signs in as a user (features/social-auth, migration 018). */
export interface UserIdentitiesTable {
  /** google, facebook or linkedin. */
  provider: string;
  /** The provider's stable id of the account (the ID token's `sub`, Facebook's app-scoped user id). */
  subject: string;
  user_id: string;
  /** The e-mail the provider gave when the identity was linked (lower case), and whether it vouched for it. */
  email: string | null;
  email_verified: number;
  created_at: string;
}

/** A user's TOTP secret, sealed (migration 028); on once `enabled_at` is set. */
export interface UserTwoFactorTable {
  user_id: string;
  company_id: string;
  secret_sealed: string;
  enabled_at: string | null;
  /** The last TOTP time step a code was accepted for: a code is never accepted twice. */
  last_used_step: number;
  created_at: string;
}

/** Keyed hashes of a user's recovery codes (migration 028); `used_at` once spent. */
export interface UserRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  company_id: string;
  used_at: string | null;
  created_at: string;
}

/** A sign-in waiting for its second step (migration 028); `id` is the SHA-256 of the cookie token. */
export interface PendingSignInsTable {
  id: string;
  user_id: string;
  company_id: string;
  failures: number;
  expires_at: string;
  created_at: string;
}

/** A WebAuthn credential a user registered (features/passkeys, migration 029). */
export interface PasskeysTable {
  id: string;
  company_id: string;
  user_id: string;
  /** The credential's id, base64url, as the browser sends it back at sign-in. */
  credential_id: string;
  /** The credential's COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter at the last sign-in (0: the authenticator keeps none). */
  counter: number;
  /** JSON list of the transports the browser reported at registration (usb, internal, hybrid…). */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/** A challenge handed out for a WebAuthn ceremony, good once and for a few minutes (migration 029). */
export interface PasskeyChallengesTable {
  challenge: string;
  /** register, sign-in or verify (a known user's assertion). */
  purpose: string;
  user_id: string | null;
  expires_at: string;
}

/** The company audit log (migration 031): append-only, see features/audit. */
export interface AuditEventsTable {
  id: string;
  company_id: string;
  actor_id: string | null;
  actor_name: string | null;
  actor_email: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  /** JSON of the action's allowed detail keys (core allowedDetails). */
  details: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}
