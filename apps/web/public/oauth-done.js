// The last page of an OAuth popup (apps/server/src/features/oauth/routes.ts): hands the result to the
// window that opened the popup, on this origin only, then closes the popup. A file, not inline, because
// the content security policy allows scripts from this origin only.
(() => {
  let result = null;
  try {
    result = JSON.parse(document.body.dataset.result || "null");
  } catch {
    result = null;
  }
  if (result && window.opener && !window.opener.closed) {
    window.opener.postMessage(result, window.location.origin);
    window.close();
  }
})();
