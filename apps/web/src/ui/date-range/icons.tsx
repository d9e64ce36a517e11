import type { SVGProps } from "react";

// Icons the date-range picker needs that ui/icons.tsx does not have yet; drawn in the same tabler style.
function Svg({ size = 18, children, ...props }: SVGProps<SVGSVGElement> & { size?: number }) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.8}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export function IconCalendar({ size }: { size?: number }) {
  return (
    <Svg size={size}>
      <rect x="4" y="5" width="16" height="16" rx="2" />
      <path d="M16 3v4M8 3v4M4 11h16" />
    </Svg>
  );
}

export function IconLink({ size }: { size?: number }) {
  return (
    <Svg size={size}>
      <path d="M9 15l6-6" />
      <path d="M11 6l.5-.5a4 4 0 0 1 5.7 5.7L16.5 12M13 18l-.5.5a4 4 0 0 1-5.7-5.7L7.5 12" />
    </Svg>
  );
}

export function IconArrowsCompare({ size }: { size?: number }) {
  return (
    <Svg size={size}>
      <path d="M4 8h13l-3-3M20 16H7l3 3" />
    </Svg>
  );
}
