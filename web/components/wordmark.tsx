import { Link } from "react-router";
import { cn } from "../lib/utils.ts";

/** The product wordmark, linking home. */
export function Wordmark({ className }: { className?: string }) {
  return (
    <Link
      to="/"
      className={cn("flex shrink-0 items-center gap-2 rounded-lg text-xl font-bold tracking-tight", className)}
    >
      <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8 shrink-0">
        <defs>
          <linearGradient id="wordmark-gradient" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#8b5cf6" />
            <stop offset="1" stopColor="#ec4899" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="9" fill="url(#wordmark-gradient)" />
        <path
          d="M11 23V9h10.5M11 16h8"
          fill="none"
          stroke="#fff"
          strokeWidth="3"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="sr-only bg-gradient-to-r from-violet-300 to-pink-300 bg-clip-text text-transparent sm:not-sr-only">Fabled</span>
    </Link>
  );
}
