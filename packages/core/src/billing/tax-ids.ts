/**
 * Billing details an accountant needs on an invoice: countries (ISO 3166-1 alpha-2), the format of a
 * VAT or tax number, and when the EU reverse charge applies. Pure; shared by the server's checks, the
 * subscription page's form and the invoice document.
 */

/** The 27 EU member states by their ISO code. */
export const EU_COUNTRIES = [
  "AT",
  "BE",
  "BG",
  "CY",
  "CZ",
  "DE",
  "DK",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "HR",
  "HU",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PL",
  "PT",
  "RO",
  "SE",
  "SI",
  "SK",
] as const;

/** Every ISO 3166-1 alpha-2 code in use (the billing country must be one). */
export const COUNTRY_CODES: readonly string[] = (
  "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW " +
  "BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI " +
  "FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN " +
  "IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME " +
  "MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF " +
  "PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV " +
  "SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XK " +
  "YE YT ZA ZM ZW"
).split(" ");

export const isCountryCode = (code: string): boolean => COUNTRY_CODES.includes(code);
export const isEuCountry = (code: string | null | undefined): boolean =>
  !!code && (EU_COUNTRIES as readonly string[]).includes(code);

/** A country's name in English ("DE" → "Germany"); the code itself where the runtime has no name for it. */
export function countryName(code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Each member state's VAT number after its prefix (Greece writes EL, not GR), as the European
 * Commission's VIES documents them; an example of each for the error message.
 */
const EU_VAT_FORMATS: Record<(typeof EU_COUNTRIES)[number], { prefix: string; body: RegExp; example: string }> = {
  AT: { prefix: "AT", body: /^U\d{8}$/, example: "ATU12345678" },
  BE: { prefix: "BE", body: /^[01]\d{9}$/, example: "BE0123456789" },
  BG: { prefix: "BG", body: /^\d{9,10}$/, example: "BG123456789" },
  CY: { prefix: "CY", body: /^\d{8}[A-Z]$/, example: "CY12345678X" },
  CZ: { prefix: "CZ", body: /^\d{8,10}$/, example: "CZ12345678" },
  DE: { prefix: "DE", body: /^\d{9}$/, example: "DE123456789" },
  DK: { prefix: "DK", body: /^\d{8}$/, example: "DK12345678" },
  EE: { prefix: "EE", body: /^\d{9}$/, example: "EE123456789" },
  ES: { prefix: "ES", body: /^[A-Z0-9]\d{7}[A-Z0-9]$/, example: "ESX1234567X" },
  FI: { prefix: "FI", body: /^\d{8}$/, example: "FI12345678" },
  FR: { prefix: "FR", body: /^[A-HJ-NP-Z0-9]{2}\d{9}$/, example: "FR12345678901" },
  GR: { prefix: "EL", body: /^\d{9}$/, example: "EL123456789" },
  HR: { prefix: "HR", body: /^\d{11}$/, example: "HR12345678901" },
  HU: { prefix: "HU", body: /^\d{8}$/, example: "HU12345678" },
  IE: { prefix: "IE", body: /^(\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/, example: "IE1234567WA" },
  IT: { prefix: "IT", body: /^\d{11}$/, example: "IT12345678901" },
  LT: { prefix: "LT", body: /^(\d{9}|\d{12})$/, example: "LT123456789" },
  LU: { prefix: "LU", body: /^\d{8}$/, example: "LU12345678" },
  LV: { prefix: "LV", body: /^\d{11}$/, example: "LV12345678901" },
  MT: { prefix: "MT", body: /^\d{8}$/, example: "MT12345678" },
  NL: { prefix: "NL", body: /^\d{9}B\d{2}$/, example: "NL123456789B01" },
  PL: { prefix: "PL", body: /^\d{10}$/, example: "PL1234567890" },
  PT: { prefix: "PT", body: /^\d{9}$/, example: "PT123456789" },
  RO: { prefix: "RO", body: /^[1-9]\d{1,9}$/, example: "RO1234567890" },
  SE: { prefix: "SE", body: /^\d{10}01$/, example: "SE123456789001" },
  SI: { prefix: "SI", body: /^\d{8}$/, example: "SI12345678" },
  SK: { prefix: "SK", body: /^\d{10}$/, example: "SK1234567890" },
};

/** Outside the EU: what tax offices write (letters, digits, spaces, `.-/`), at least 2 digits. */
const GENERIC_TAX_ID = /^[A-Z0-9][A-Z0-9 .\-/]{2,31}$/i;

export type VatIdCheck = { ok: true; value: string; eu: boolean } | { ok: false; message: string };

/**
 * Whether `input` is a VAT or tax number of a company in `country` (ISO code; null when not given).
 * An EU company's number is its country's prefix and pattern (spaces, dots and dashes dropped, upper
 * case: `de 123.456.789` → `DE123456789`); a number starting with an EU prefix but no country given is
 * checked as that country's. Anywhere else: a sane generic pattern, kept as typed (trimmed).
 */
export function checkVatId(input: string, country: string | null): VatIdCheck {
  const typed = input.trim();
  const compact = typed.replace(/[\s.-]/g, "").toUpperCase();
  const byPrefix = Object.entries(EU_VAT_FORMATS).find(([, format]) => compact.startsWith(format.prefix))?.[0];
  const eu = isEuCountry(country) ? country : country ? null : (byPrefix ?? null);
  if (eu) {
    const format = EU_VAT_FORMATS[eu as keyof typeof EU_VAT_FORMATS];
    const name = countryName(eu);
    if (!compact.startsWith(format.prefix)) {
      return { ok: false, message: `${name} VAT numbers start with ${format.prefix}, e.g. ${format.example}.` };
    }
    if (!format.body.test(compact.slice(format.prefix.length))) {
      return { ok: false, message: `${name} VAT numbers are written like ${format.example}.` };
    }
    return { ok: true, value: compact, eu: true };
  }
  if (!GENERIC_TAX_ID.test(typed) || (typed.match(/\d/g) ?? []).length < 2) {
    return {
      ok: false,
      message: "A tax number has letters, digits, spaces, dots, dashes or slashes, and at least two digits.",
    };
  }
  return { ok: true, value: typed, eu: false };
}

/** The wording printed instead of the VAT line when the reverse charge applies. */
export const REVERSE_CHARGE_NOTE =
  "Reverse charge: VAT to be accounted for by the recipient (Article 196, Council Directive 2006/112/EC)";

/**
 * Whether an invoice carries the reverse-charge note: the operator enabled it, seller and buyer are in
 * two different EU countries, and the buyer gave a VAT number (it is a business).
 */
export function reverseChargeApplies(facts: {
  enabled: boolean;
  sellerCountry: string | null;
  buyerCountry: string | null;
  buyerVatId: string | null;
}): boolean {
  return (
    facts.enabled &&
    isEuCountry(facts.sellerCountry) &&
    isEuCountry(facts.buyerCountry) &&
    facts.sellerCountry !== facts.buyerCountry &&
    !!facts.buyerVatId?.trim()
  );
}
