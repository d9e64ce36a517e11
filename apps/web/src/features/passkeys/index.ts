export { passkeySignIn, signInOptions } from "./api";
export { ceremonyErrorMessage, getAssertion } from "./browser";
export { PasskeySignInButton, type PasskeySignInButtonProps } from "./components/PasskeySignInButton";
export { PasskeysSection } from "./components/PasskeysSection";
