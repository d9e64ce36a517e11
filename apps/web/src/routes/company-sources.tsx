import { ComingSoon } from "../ui/ComingSoon";
import { IconPlug } from "../ui/icons";
import { PageHeader } from "../ui/PageHeader";

/** /company/sources */
export default function CompanySourcesScreen() {
  return (
    <>
      <PageHeader
        title="Company Sources"
        description="The marketing accounts your dashboards read from, shared by the whole team."
      />
      <ComingSoon icon={<IconPlug size={26} />}>
        Here you will connect Google Analytics, Search Console, Google Ads, Facebook, Instagram, LinkedIn, SEO tools,
        Mailchimp, Klaviyo, WooCommerce and more, and re-authorise sources that have expired.
      </ComingSoon>
    </>
  );
}
