/** The frame of Create Character and Edit Character: back to My Characters, the title, the form. */
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "../components/ui/button.tsx";

export function CharacterFormPage({ title, subtitle, children }: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 md:py-10">
      <title>{`${title} — Fabled`}</title>
      <Button asChild variant="ghost" size="sm" className="-ml-3 text-muted-foreground hover:text-foreground">
        <Link to="/my-characters">
          <ArrowLeft aria-hidden="true" /> My Characters
        </Link>
      </Button>
      <header className="mt-4 mb-6">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <p className="mt-1 text-muted-foreground">{subtitle}</p>
      </header>
      {children}
    </div>
  );
}
