/** Frame of every page: skip link, sticky header, a suspended account's notice, the page in `<main>`, footer. */
import { Suspense } from "react";
import { Outlet } from "react-router";
import { Footer } from "../components/footer.tsx";
import { Header } from "../components/header.tsx";
import { PageSpinner } from "../components/page-spinner.tsx";
import { SuspensionBanner } from "../components/suspension-banner.tsx";
import { useScrollRestoration } from "./use-scroll-restoration.ts";

export function RootLayout() {
  useScrollRestoration();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-primary-strong px-4 py-2 text-white focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <Header />
      <SuspensionBanner />
      <main id="main" tabIndex={-1} className="flex-1 outline-none">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
