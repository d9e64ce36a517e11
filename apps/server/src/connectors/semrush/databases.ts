import type { TOption } from "@app/core";

/**
 * SEMrush's regional databases, as its Standard API documents them ("Databases" in
 * https://developer.semrush.com/api/v3/analytics/basic-docs/#databases): a desktop database is a
 * two-letter code (`us` is google.com, `uk` google.co.uk …); the `mobile-` variants exist for the
 * larger markets. The `database` parameter must be one of these; anything else is refused by SEMrush.
 */
const DESKTOP: ReadonlyArray<readonly [string, string]> = [
  ["us", "United States (google.com)"],
  ["uk", "United Kingdom (google.co.uk)"],
  ["ca", "Canada (google.ca)"],
  ["au", "Australia (google.com.au)"],
  ["de", "Germany (google.de)"],
  ["fr", "France (google.fr)"],
  ["es", "Spain (google.es)"],
  ["it", "Italy (google.it)"],
  ["br", "Brazil (google.com.br)"],
  ["ru", "Russia (google.ru)"],
  ["ar", "Argentina (google.com.ar)"],
  ["be", "Belgium (google.be)"],
  ["ch", "Switzerland (google.ch)"],
  ["dk", "Denmark (google.dk)"],
  ["fi", "Finland (google.fi)"],
  ["hk", "Hong Kong (google.com.hk)"],
  ["ie", "Ireland (google.ie)"],
  ["il", "Israel (google.co.il)"],
  ["mx", "Mexico (google.com.mx)"],
  ["nl", "Netherlands (google.nl)"],
  ["no", "Norway (google.no)"],
  ["pl", "Poland (google.pl)"],
  ["se", "Sweden (google.se)"],
  ["sg", "Singapore (google.com.sg)"],
  ["tr", "Turkey (google.com.tr)"],
  ["jp", "Japan (google.co.jp)"],
  ["in", "India (google.co.in)"],
  ["hu", "Hungary (google.hu)"],
  ["at", "Austria (google.at)"],
  ["pt", "Portugal (google.pt)"],
  ["gr", "Greece (google.gr)"],
  ["cz", "Czech Republic (google.cz)"],
  ["sk", "Slovakia (google.sk)"],
  ["ro", "Romania (google.ro)"],
  ["bg", "Bulgaria (google.bg)"],
  ["hr", "Croatia (google.hr)"],
  ["si", "Slovenia (google.si)"],
  ["rs", "Serbia (google.rs)"],
  ["ua", "Ukraine (google.com.ua)"],
  ["lt", "Lithuania (google.lt)"],
  ["lv", "Latvia (google.lv)"],
  ["ee", "Estonia (google.ee)"],
  ["nz", "New Zealand (google.co.nz)"],
  ["za", "South Africa (google.co.za)"],
  ["ae", "United Arab Emirates (google.ae)"],
  ["sa", "Saudi Arabia (google.com.sa)"],
  ["eg", "Egypt (google.com.eg)"],
  ["ma", "Morocco (google.co.ma)"],
  ["ng", "Nigeria (google.com.ng)"],
  ["ke", "Kenya (google.co.ke)"],
  ["kr", "South Korea (google.co.kr)"],
  ["tw", "Taiwan (google.com.tw)"],
  ["th", "Thailand (google.co.th)"],
  ["vn", "Vietnam (google.com.vn)"],
  ["id", "Indonesia (google.co.id)"],
  ["my", "Malaysia (google.com.my)"],
  ["ph", "Philippines (google.com.ph)"],
  ["pk", "Pakistan (google.com.pk)"],
  ["bd", "Bangladesh (google.com.bd)"],
  ["cl", "Chile (google.cl)"],
  ["co", "Colombia (google.com.co)"],
  ["pe", "Peru (google.com.pe)"],
  ["ve", "Venezuela (google.co.ve)"],
  ["ec", "Ecuador (google.com.ec)"],
  ["uy", "Uruguay (google.com.uy)"],
  ["cr", "Costa Rica (google.co.cr)"],
];

/** Mobile databases SEMrush keeps (a `mobile-` prefix on the market's code). */
const MOBILE: ReadonlyArray<readonly [string, string]> = [
  ["mobile-us", "United States, mobile"],
  ["mobile-uk", "United Kingdom, mobile"],
  ["mobile-ca", "Canada, mobile"],
  ["mobile-au", "Australia, mobile"],
  ["mobile-de", "Germany, mobile"],
  ["mobile-fr", "France, mobile"],
  ["mobile-es", "Spain, mobile"],
  ["mobile-it", "Italy, mobile"],
  ["mobile-br", "Brazil, mobile"],
];

export const SEMRUSH_DATABASES: readonly TOption[] = [...DESKTOP, ...MOBILE].map(([value, label]) => ({
  value,
  label,
}));

export const isSemrushDatabase = (value: string): boolean => SEMRUSH_DATABASES.some((entry) => entry.value === value);
