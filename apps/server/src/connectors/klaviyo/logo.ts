/** The provider's mark (our own simple drawing in its brand colours), served by GET /api/configs/connectors/:key/logo.svg. */
export const logo = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" role="img" aria-label="Klaviyo logo" focusable="false"><rect x="1" y="1" width="30" height="30" rx="7" fill="#232426"/><path d="M8 9h17l-4 7 4 7H8Z" fill="#ffffff"/></svg>`;
