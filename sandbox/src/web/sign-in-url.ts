/** The sign-in page's URL, bringing the user back to `next` (a same-origin path) afterwards; `safeNext` in portal/sign-in.ts judges it. */
export function signInUrl(next: string): string {
  return `/portal/sign-in?${new URLSearchParams({ next }).toString()}`;
}
