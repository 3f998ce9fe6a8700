import { Skeleton } from "../../../components/ui/skeleton.tsx";

/** The chat page's frame while the conversation and its character load (SPEC.md §2 "Chat"). */
export function ChatSkeleton() {
  return (
    <div className="mx-auto flex h-[calc(100dvh-4rem)] w-full max-w-4xl flex-col md:px-4 md:py-4" role="status" aria-busy="true" aria-label="Loading conversation">
      <div className="flex min-h-0 flex-1 flex-col overflow-hidden bg-card md:rounded-2xl md:border md:border-border">
        <div className="flex items-center gap-3 border-b border-border px-4 py-3">
          <Skeleton className="size-10 rounded-lg" />
          <Skeleton className="size-10 rounded-full" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-32" />
            <Skeleton className="h-3 w-20" />
          </div>
        </div>
        <div className="flex flex-1 flex-col gap-4 px-5 py-6">
          <Skeleton className="h-20 w-3/4 rounded-2xl" />
          <Skeleton className="ml-auto h-10 w-1/2 rounded-2xl" />
          <Skeleton className="h-14 w-2/3 rounded-2xl" />
        </div>
        <div className="border-t border-border p-4">
          <Skeleton className="h-11 w-full rounded-xl" />
        </div>
      </div>
    </div>
  );
}
