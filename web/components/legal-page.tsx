import { format } from "date-fns";
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

/**
 * Frame of the legal pages (SPEC.md §2 "Legal pages"): Back to Home, the
 * title, "Last Updated" with today's date, then the sections.
 */
export function LegalPage({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 md:py-12">
      <title>{`${title} — Fabled`}</title>
      <Link
        to="/"
        className="inline-flex items-center gap-2 rounded-md text-sm text-muted-foreground hover:text-foreground"
      >
        <ArrowLeft aria-hidden="true" className="size-4" /> Back to Home
      </Link>
      <article className="mt-6 rounded-2xl border border-border bg-card p-6 md:p-10">
        <h1 className="text-3xl font-bold tracking-tight md:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">Last Updated: {format(new Date(), "MMMM d, yyyy")}</p>
        <div className="mt-6 text-[15px] leading-7 text-foreground/90 [&_a]:text-ring [&_a]:underline [&_h2]:mt-8 [&_h2]:mb-3 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-foreground [&_li]:mt-1.5 [&_p]:mt-3 [&_strong]:text-foreground [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-6">
          <div className="text-base text-foreground">{intro}</div>
          {children}
        </div>
      </article>
    </div>
  );
}
