/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/cloudflare" />

declare module '*.css' {
  const href: string;
  export default href;
}
