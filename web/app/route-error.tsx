/**
 * Shown when a page throws while rendering or its code fails to load (e.g. a
 * new deploy replaced the chunk): offers a reload, which fetches fresh code.
 * The FallbackComponent of app.tsx's error boundary (react-error-boundary).
 */
import type { FallbackProps } from "react-error-boundary";
import { Link } from "react-router";
import { Button } from "../components/ui/button.tsx";

export function RouteError({ error }: FallbackProps) {
  console.error(error);
  return (
    <main id="main" className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-4 text-center">
      <h1 className="text-2xl font-bold">Something went wrong</h1>
      <p className="mt-2 text-muted-foreground">Please reload the page. If the problem continues, try again later.</p>
      <div className="mt-6 flex gap-3">
        <Button variant="gradient" onClick={() => window.location.reload()}>
          Reload
        </Button>
        <Button asChild variant="outline">
          <Link to="/" reloadDocument>
            Back to Home
          </Link>
        </Button>
      </div>
    </main>
  );
}
