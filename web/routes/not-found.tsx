/** Any path without a screen: 404 "Page Not Found". */
import { Compass } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../components/ui/button.tsx";

export function NotFoundPage() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>Page Not Found — Fabled</title>
      <div className="mb-6 flex size-16 items-center justify-center rounded-2xl bg-gradient-to-br from-primary-strong to-accent-pink shadow-lg shadow-primary/30">
        <Compass aria-hidden="true" className="size-8 text-white" />
      </div>
      <p className="text-sm font-semibold tracking-widest text-pink-300">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight md:text-4xl">Page Not Found</h1>
      <p className="mt-3 text-muted-foreground">
        The page you are looking for doesn't exist or has moved. Plenty of characters are waiting for you at home.
      </p>
      <Button asChild variant="gradient" size="lg" className="mt-8">
        <Link to="/">Back to Home</Link>
      </Button>
    </div>
  );
}
