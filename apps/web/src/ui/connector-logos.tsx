import { type ReactNode, type SVGProps, useId } from "react";

/**
 * The data providers' marks, drawn here as small inline SVGs in their brand colours (our own simple
 * drawings, no downloaded assets), so the catalogue reads at a glance. Each is an image named after
 * its provider.
 */
export interface LogoProps extends Omit<SVGProps<SVGSVGElement>, "name"> {
  size?: number;
}

function Logo({ size = 28, label, children, ...props }: LogoProps & { label: string; children: ReactNode }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 32 32"
      role="img"
      aria-label={`${label} logo`}
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

const GOOGLE = { blue: "#4285F4", red: "#EA4335", yellow: "#FBBC04", green: "#34A853" };
const FONT = "Inter, ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";

/** A white letter (or two) centred on a brand-coloured tile. */
function LetterTile({
  label,
  fill,
  text,
  size,
  colour = "#ffffff",
  round = false,
  ...props
}: LogoProps & {
  label: string;
  fill: string;
  text: string;
  colour?: string;
  round?: boolean;
}) {
  return (
    <Logo label={label} size={size} {...props}>
      {round ? (
        <circle cx="16" cy="16" r="15" fill={fill} />
      ) : (
        <rect x="1" y="1" width="30" height="30" rx="7" fill={fill} />
      )}
      <text
        x="16"
        y="16"
        dy="0.36em"
        textAnchor="middle"
        fontFamily={FONT}
        fontWeight="800"
        fontSize={text.length > 1 ? 13 : 18}
        fill={colour}
      >
        {text}
      </text>
    </Logo>
  );
}

function GoogleAnalytics(props: LogoProps) {
  return (
    <Logo label="Google Analytics" {...props}>
      <rect x="20" y="3" width="8" height="26" rx="4" fill="#F9AB00" />
      <rect x="12" y="12" width="8" height="17" rx="4" fill="#E37400" />
      <circle cx="8" cy="25" r="4" fill="#E37400" />
    </Logo>
  );
}

function SearchConsole(props: LogoProps) {
  return (
    <Logo label="Search Console" {...props}>
      <rect x="3" y="5" width="26" height="19" rx="3" fill="#E8F0FE" stroke={GOOGLE.blue} strokeWidth="2" />
      <rect x="3" y="5" width="26" height="5" rx="2" fill={GOOGLE.blue} />
      <circle cx="14" cy="17" r="4.5" fill="none" stroke="#5F6368" strokeWidth="2.4" />
      <path d="m17.5 20.5 6 6" stroke="#5F6368" strokeWidth="3" strokeLinecap="round" />
    </Logo>
  );
}

function GoogleAds(props: LogoProps) {
  return (
    <Logo label="Google Ads" {...props}>
      <path d="m13 5 12 21" stroke={GOOGLE.blue} strokeWidth="7.5" strokeLinecap="round" />
      <path d="M13 5 5.5 18" stroke={GOOGLE.yellow} strokeWidth="7.5" strokeLinecap="round" />
      <circle cx="7" cy="25" r="4.2" fill={GOOGLE.green} />
    </Logo>
  );
}

function GoogleMyBusiness(props: LogoProps) {
  return (
    <Logo label="Google My Business" {...props}>
      <rect x="5" y="13" width="22" height="15" rx="2" fill="#AECBFA" />
      <path d="M6 5h20l3 8H3Z" fill={GOOGLE.blue} />
      <path d="M3 13h26a0 0 0 0 1 0 0 4.3 4.3 0 0 1-8.7 0 4.3 4.3 0 0 1-8.6 0A4.3 4.3 0 0 1 3 13Z" fill="#1967D2" />
      <rect x="18" y="19" width="6" height="9" rx="1" fill={GOOGLE.blue} />
    </Logo>
  );
}

function Facebook({ label, ...props }: LogoProps & { label: string }) {
  return (
    <Logo label={label} {...props}>
      <circle cx="16" cy="16" r="15" fill="#1877F2" />
      <path
        d="M17.6 31V19.6h3.6l.6-4.3h-4.2v-2.6c0-1.2.4-2.1 2.2-2.1H22V6.8a29 29 0 0 0-3.3-.2c-3.3 0-5.4 2-5.4 5.6v3.1H9.7v4.3h3.6V31Z"
        fill="#ffffff"
      />
    </Logo>
  );
}

function Instagram(props: LogoProps) {
  // Ids are document-wide: each copy gets its own, so a hidden copy never breaks another's gradient.
  const gradient = useId();
  return (
    <Logo label="Instagram" {...props}>
      <defs>
        <linearGradient id={gradient} x1="0" y1="1" x2="1" y2="0">
          <stop offset="0" stopColor="#FEDA75" />
          <stop offset="0.3" stopColor="#FA7E1E" />
          <stop offset="0.6" stopColor="#D62976" />
          <stop offset="1" stopColor="#4F5BD5" />
        </linearGradient>
      </defs>
      <rect x="1" y="1" width="30" height="30" rx="8" fill={`url(#${gradient})`} />
      <rect x="7" y="7" width="18" height="18" rx="5.5" fill="none" stroke="#ffffff" strokeWidth="2.4" />
      <circle cx="16" cy="16" r="4.3" fill="none" stroke="#ffffff" strokeWidth="2.4" />
      <circle cx="21.4" cy="10.6" r="1.4" fill="#ffffff" />
    </Logo>
  );
}

function GoogleSheets(props: LogoProps) {
  return (
    <Logo label="Google Sheets" {...props}>
      <path d="M7 2h12l7 7v19a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Z" fill="#0F9D58" />
      <path d="M19 2v5a2 2 0 0 0 2 2h5Z" fill="#87CEAC" />
      <path d="M10 14h12v10H10Zm0 3.3h12M10 20.6h12M15 14v10" fill="none" stroke="#ffffff" strokeWidth="1.6" />
    </Logo>
  );
}

function RankRanger(props: LogoProps) {
  return (
    <Logo label="RankRanger" {...props}>
      <rect x="1" y="1" width="30" height="30" rx="7" fill="#1D3F72" />
      <rect x="7" y="17" width="4.5" height="8" rx="1" fill="#5DB3F6" />
      <rect x="13.75" y="12" width="4.5" height="13" rx="1" fill="#8ACBFA" />
      <rect x="20.5" y="7" width="4.5" height="18" rx="1" fill="#ffffff" />
    </Logo>
  );
}

function SeRanking(props: LogoProps) {
  return (
    <Logo label="SERanking" {...props}>
      <rect x="1" y="1" width="30" height="30" rx="7" fill="#3F7BF6" />
      <path
        d="m7 22 6-6 4 4 8-9"
        fill="none"
        stroke="#ffffff"
        strokeWidth="2.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <path
        d="M19.5 10.5H25V16"
        fill="none"
        stroke="#ffffff"
        strokeWidth="2.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </Logo>
  );
}

function Salesflare(props: LogoProps) {
  return (
    <Logo label="SalesFlare" {...props}>
      <rect x="1" y="1" width="30" height="30" rx="7" fill="#2A75D8" />
      <path
        d="M16 5c2 5 6 6.5 6 12a6 6 0 0 1-12 0c0-3 1.6-4.6 3-6 .3 2 1 3.2 2.2 3.6C15 11 15 8 16 5Z"
        fill="#ffffff"
      />
    </Logo>
  );
}

function WooCommerce(props: LogoProps) {
  return (
    <Logo label="WooCommerce" {...props}>
      <path d="M4 6h24a3 3 0 0 1 3 3v11a3 3 0 0 1-3 3h-8l2 5-7-5H4a3 3 0 0 1-3-3V9a3 3 0 0 1 3-3Z" fill="#7F54B3" />
      <path
        d="m6.5 10.5 2 8 2.8-6 2.7 6 2-8"
        fill="none"
        stroke="#ffffff"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
      <circle cx="20.5" cy="15.5" r="2.4" fill="none" stroke="#ffffff" strokeWidth="1.8" />
      <circle cx="26" cy="15.5" r="2.4" fill="none" stroke="#ffffff" strokeWidth="1.8" />
    </Logo>
  );
}

function LinkedIn({ label, ...props }: LogoProps & { label: string }) {
  return (
    <Logo label={label} {...props}>
      <rect x="1" y="1" width="30" height="30" rx="5" fill="#0A66C2" />
      <circle cx="9.5" cy="9.3" r="2.3" fill="#ffffff" />
      <rect x="7.5" y="13" width="4" height="12" fill="#ffffff" />
      <path
        d="M14.5 13h3.8v1.7c.6-1 2-2 4-2 3.7 0 4.3 2.4 4.3 5.5V25h-4v-5.9c0-1.4 0-3.2-2-3.2s-2.2 1.5-2.2 3.1v6h-3.9Z"
        fill="#ffffff"
      />
    </Logo>
  );
}

function AccuRanker(props: LogoProps) {
  return (
    <Logo label="AccuRanker" {...props}>
      <rect x="1" y="1" width="30" height="30" rx="7" fill="#0B2545" />
      <circle cx="16" cy="16" r="9" fill="none" stroke="#43C6AC" strokeWidth="2.4" />
      <circle cx="16" cy="16" r="4.5" fill="none" stroke="#ffffff" strokeWidth="2.4" />
      <circle cx="16" cy="16" r="1.6" fill="#ffffff" />
    </Logo>
  );
}

function Mailchimp(props: LogoProps) {
  return (
    <Logo label="Mailchimp" {...props}>
      <rect x="1" y="1" width="30" height="30" rx="7" fill="#FFE01B" />
      <circle cx="8.5" cy="15" r="3.2" fill="#241C15" />
      <circle cx="23.5" cy="15" r="3.2" fill="#241C15" />
      <ellipse cx="16" cy="16" rx="7" ry="8" fill="#241C15" />
      <ellipse cx="16" cy="19.5" rx="4" ry="3" fill="#FFE01B" />
      <circle cx="13.4" cy="13.5" r="1.2" fill="#FFE01B" />
      <circle cx="18.6" cy="13.5" r="1.2" fill="#FFE01B" />
    </Logo>
  );
}

function TikTok(props: LogoProps) {
  const note = "M17 6h3.6a5.5 5.5 0 0 0 5 5v3.6a9 9 0 0 1-5-1.6v6.6a6.6 6.6 0 1 1-6.6-6.6h.6v3.7a3 3 0 1 0 2.4 2.9Z";
  return (
    <Logo label="TikTok" {...props}>
      <rect x="1" y="1" width="30" height="30" rx="7" fill="#010101" />
      <path d={note} fill="#25F4EE" transform="translate(-1.2 -1)" />
      <path d={note} fill="#FE2C55" transform="translate(1 1)" />
      <path d={note} fill="#ffffff" />
    </Logo>
  );
}

function Klaviyo(props: LogoProps) {
  return (
    <Logo label="Klaviyo" {...props}>
      <rect x="1" y="1" width="30" height="30" rx="7" fill="#232426" />
      <path d="M8 9h17l-4 7 4 7H8Z" fill="#ffffff" />
    </Logo>
  );
}

function DemoData(props: LogoProps) {
  return (
    <Logo label="Demo data" {...props}>
      <rect x="1" y="1" width="30" height="30" rx="7" fill="#4C4FEF" />
      <rect x="7.5" y="16" width="4" height="9" rx="1.2" fill="#B7B9FB" />
      <rect x="14" y="11" width="4" height="14" rx="1.2" fill="#DCDEFF" />
      <rect x="20.5" y="7" width="4" height="18" rx="1.2" fill="#ffffff" />
    </Logo>
  );
}

function CsvUpload(props: LogoProps) {
  return (
    <Logo label="CSV upload" {...props}>
      <path d="M7 2h12l7 7v19a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2Z" fill="#1E7145" />
      <path d="M19 2v5a2 2 0 0 0 2 2h5Z" fill="#8CC6A6" />
      <text x="15.5" y="22" textAnchor="middle" fontFamily={FONT} fontWeight="800" fontSize="8.5" fill="#ffffff">
        CSV
      </text>
    </Logo>
  );
}

/** Each connector key's mark; connectors not listed fall back to their initials. */
export const CONNECTOR_LOGOS: Record<string, (props: LogoProps) => ReactNode> = {
  googleAnalytics: GoogleAnalytics,
  searchConsole: SearchConsole,
  googleAds: GoogleAds,
  googleMyBusiness: GoogleMyBusiness,
  facebookAds: (props) => <Facebook label="Facebook Ads" {...props} />,
  facebookSocial: (props) => <Facebook label="Facebook Social" {...props} />,
  instagram: Instagram,
  googleSheets: GoogleSheets,
  ahrefsV3: (props) => <LetterTile label="Ahrefs" fill="#FF8800" text="ah" {...props} />,
  semrush: (props) => <LetterTile label="SEMrush" fill="#FF642D" text="S" round {...props} />,
  rankRanger: RankRanger,
  serpstat: (props) => <LetterTile label="SerpStat" fill="#EA5B2A" text="S" {...props} />,
  seranking: SeRanking,
  salesflare: Salesflare,
  woocommerce: WooCommerce,
  linkedinAds: (props) => <LinkedIn label="LinkedIn Ads" {...props} />,
  linkedinSocial: (props) => <LinkedIn label="LinkedIn Social" {...props} />,
  baseMe: (props) => <LetterTile label="Base.me" fill="#2E3A48" text="b" {...props} />,
  accuranker: AccuRanker,
  mailchimp: Mailchimp,
  tiktok: TikTok,
  klaviyo: Klaviyo,
  demo: DemoData,
  csv: CsvUpload,
};
