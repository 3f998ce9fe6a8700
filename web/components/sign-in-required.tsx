import { LockKeyhole } from "lucide-react";
import { Link, useLocation } from "react-router";
import { loginPath } from "../lib/auth.ts";
import { Button } from "./ui/button.tsx";

/**
 * A signed-in page seen by a visitor (SPEC.md §2): "Sign In Required", what
 * signing in is for, Sign In (which comes back to this page) and Go Home.
 */
export function SignInRequired({ message }: { message: string }) {
  const { pathname, search } = useLocation();
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>Sign In Required — Fabled</title>
      <div className="mb-6 flex size-14 items-center justify-center rounded-2xl bg-surface">
        <LockKeyhole aria-hidden="true" className="size-7 text-violet-300" />
      </div>
      <h1 className="text-2xl font-bold tracking-tight">Sign In Required</h1>
      <p className="mt-2 text-muted-foreground">{message}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Button asChild variant="gradient">
          <a href={loginPath(`${pathname}${search}`)}>Sign In</a>
        </Button>
        <Button asChild variant="outline">
          <Link to="/">Go Home</Link>
        </Button>
      </div>
    </div>
  );
}
