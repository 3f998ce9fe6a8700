/**
 * `/lorebooks` (the person's lorebooks) and `/lorebooks/:id` (one book's
 * editor), DESIGN.md turn 4 "Lorebooks": a spinner while the person loads;
 * visitors are sent to "/" once it is known they are not signed in; a book
 * that is not theirs is "not found", as the API says.
 */
import { useEffect } from "react";
import { useQuery } from "@tanstack/react-query";
import { Link, useNavigate, useParams } from "react-router";
import { PageSpinner } from "../components/page-spinner.tsx";
import { ListLoadFailed } from "../components/list-states.tsx";
import { lorebookQueryOptions } from "../features/lorebooks/api/lorebooks.ts";
import { LorebookEditor } from "../features/lorebooks/components/lorebook-editor.tsx";
import { LorebooksSection } from "../features/lorebooks/components/lorebooks-section.tsx";
import { errorStatus } from "../lib/api-client.ts";
import { useUser } from "../lib/auth.ts";

function useSignedIn() {
  const { user, isLoading } = useUser();
  const navigate = useNavigate();
  useEffect(() => {
    if (!isLoading && !user) navigate("/", { replace: true });
  }, [isLoading, user, navigate]);
  return user;
}

export function LorebooksPage() {
  const user = useSignedIn();
  if (!user) return <PageSpinner />;
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 md:py-10">
      <title>Lorebooks — Fabled</title>
      <LorebooksSection />
    </div>
  );
}

export function LorebookPage() {
  const user = useSignedIn();
  const { id = "" } = useParams();
  const book = useQuery({ ...lorebookQueryOptions(id), enabled: Boolean(user) });
  if (!user || book.isPending) return <PageSpinner />;
  return (
    <div className="mx-auto max-w-3xl px-4 py-6 md:py-10">
      <title>{`${book.data?.name ?? "Lorebook"} — Fabled`}</title>
      <Link to="/lorebooks" className="text-sm text-muted-foreground hover:underline">
        ← Lorebooks
      </Link>
      <h1 className="mt-2 mb-4 text-2xl font-bold">{book.data?.name ?? "Lorebook"}</h1>
      {book.isError ? (
        errorStatus(book.error) === 404 ? (
          <p>This lorebook was not found.</p>
        ) : (
          <ListLoadFailed title="The lorebook could not be loaded" onRetry={() => void book.refetch()} />
        )
      ) : (
        <LorebookEditor key={book.data.updatedAt} book={book.data} />
      )}
    </div>
  );
}
