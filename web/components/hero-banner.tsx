import { Sparkles } from "lucide-react";
import { LOGIN_PATH } from "../lib/auth.ts";
import { Button } from "./ui/button.tsx";

/** Home's marketing banner (SPEC.md §1): what a free account unlocks. */
export function HeroBanner() {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative overflow-hidden rounded-2xl border border-primary/25 bg-gradient-to-br from-violet-950 via-[#1d0f2e] to-pink-950 px-5 py-7 md:px-8 md:py-9"
    >
      <div aria-hidden="true" className="pointer-events-none absolute -top-24 -right-16 size-72 rounded-full bg-pink-600/25 blur-3xl" />
      <div aria-hidden="true" className="pointer-events-none absolute -bottom-28 left-1/3 size-72 rounded-full bg-violet-600/25 blur-3xl" />
      <div className="relative flex flex-col gap-5 lg:flex-row lg:items-center lg:justify-between">
        <div className="max-w-2xl space-y-2">
          <p className="inline-flex items-center gap-1.5 rounded-full bg-white/10 px-2.5 py-1 text-xs font-medium text-pink-200">
            <Sparkles aria-hidden="true" className="size-3.5" /> Free forever
          </p>
          <h2 id="hero-title" className="text-2xl font-bold tracking-tight text-white md:text-3xl">
            Join the #1 Free AI Roleplay Platform
          </h2>
          <p className="text-sm text-violet-100/90 md:text-base">
            Create a free account to unlock 1,000,000+ chatbots, NSFW content, character creation and
            personalization.
          </p>
        </div>
        <Button asChild variant="gradient" size="lg" className="self-start lg:self-auto">
          <a href={LOGIN_PATH}>Create Free Account</a>
        </Button>
      </div>
    </section>
  );
}
