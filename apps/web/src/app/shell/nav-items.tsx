import type { ReactNode } from "react";
import {
  IconClock,
  IconCreditCard,
  IconDashboard,
  IconMail,
  IconPlug,
  IconReceipt,
  IconSettings,
  IconTarget,
  IconUsers,
} from "../../ui/icons";

export interface NavItem {
  label: string;
  to: string;
  icon: ReactNode;
  adminOnly?: boolean;
}

export interface NavSection {
  label: string;
  items: NavItem[];
}

/** The left navigation; admin-only entries follow docs/product.md §6. */
export const NAV_SECTIONS: NavSection[] = [
  {
    label: "Reporting",
    items: [
      { label: "Dashboards", to: "/dashboards", icon: <IconDashboard /> },
      { label: "Groups", to: "/groups", icon: <IconTarget /> },
    ],
  },
  {
    label: "Company",
    items: [
      { label: "Company Sources", to: "/company/sources", icon: <IconPlug /> },
      { label: "Automatic Reports", to: "/company/automatic-reports", icon: <IconMail /> },
      { label: "Users", to: "/company/users", icon: <IconUsers />, adminOnly: true },
      { label: "Company Settings", to: "/company/settings", icon: <IconSettings />, adminOnly: true },
      { label: "Audit log", to: "/company/audit-log", icon: <IconClock />, adminOnly: true },
    ],
  },
  {
    label: "Billing",
    items: [
      { label: "Subscription", to: "/company/subscription", icon: <IconCreditCard />, adminOnly: true },
      { label: "Invoices", to: "/company/invoices", icon: <IconReceipt />, adminOnly: true },
    ],
  },
];
