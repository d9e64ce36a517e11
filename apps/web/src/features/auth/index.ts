export { logout } from "./api";
export { AuthCard } from "./components/AuthCard";
export { LoginForm } from "./components/LoginForm";
export { RegisterForm } from "./components/RegisterForm";
export { SetPasswordForm } from "./components/SetPasswordForm";
export { SocialSignInNotice } from "./components/SocialButtons";
export { useSignIn } from "./use-sign-in";
