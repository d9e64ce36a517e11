/** The browser's IANA zone, or UTC where the browser names none (the server checks it again anyway). */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}
