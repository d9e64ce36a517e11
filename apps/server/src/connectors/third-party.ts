import type { TAuthKind, TWidgetTypeConfig } from "@app/core";
import { type Connector, ConnectorError } from "./types";

/**
 * The provider connectors of docs/product.md §3. They are listed so the catalogue is complete and honest, but
 * connecting them arrives in a later release: creating such a source answers 422, and nothing here
 * fabricates data. A declaration may carry the widget types the connector will offer.
 */

interface Declaration {
  key: string;
  displayName: string;
  order: number;
  authKind: TAuthKind;
  remark?: string;
  widgetTypes?: (key: string) => TWidgetTypeConfig[];
}

const DECLARATIONS: Declaration[] = [
  { key: "rankRanger", displayName: "RankRanger", order: 12, authKind: "account+token" },
  { key: "linkedinAds", displayName: "LinkedIn Ads", order: 17, authKind: "oauth2" },
  { key: "linkedinSocial", displayName: "LinkedIn Social", order: 18, authKind: "oauth2" },
  { key: "baseMe", displayName: "Base.me", order: 19, authKind: "oauth2" },
  { key: "accuranker", displayName: "AccuRanker", order: 20, authKind: "oauth2", remark: "Also asks for an account." },
  { key: "mailchimp", displayName: "Mailchimp", order: 21, authKind: "oauth2" },
  { key: "tiktok", displayName: "TikTok", order: 22, authKind: "oauth2" },
];

function unavailable(declaration: Declaration): Connector {
  const name = declaration.displayName.replace(" [beta]", "");
  const later = `Connecting ${name} arrives in a later release.`;
  const refuse = async (): Promise<never> => {
    throw new ConnectorError(`${name} cannot be queried in this release`);
  };
  return {
    key: declaration.key,
    displayName: declaration.displayName,
    order: declaration.order,
    authKind: declaration.authKind,
    available: false,
    note: declaration.remark ? `${declaration.remark} ${later}` : later,
    widgetTypes: declaration.widgetTypes?.(declaration.key) ?? [],
    options: refuse,
    query: refuse,
  };
}

/** The third-party catalogue entries of docs/product.md §3, none of which can be connected yet. */
export const THIRD_PARTY_CONNECTORS: readonly Connector[] = DECLARATIONS.map(unavailable);
