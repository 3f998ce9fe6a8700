/**
 * `/edit-character/:id` — Edit Character (SPEC.md §2): "Loading
 * character..." while it loads; "Character Not Found" when it is missing or
 * is someone else's; the form, pre-filled, and below it "Expressions and
 * backgrounds" (issue 37); "Sign In Required" for visitors.
 */
import { useQuery } from "@tanstack/react-query";
import { LoaderCircle, SearchX } from "lucide-react";
import { lazy, Suspense } from "react";
import { Link, useParams } from "react-router";
import { PageSpinner } from "../components/page-spinner.tsx";
import { SignInRequired } from "../components/sign-in-required.tsx";
import { Button } from "../components/ui/button.tsx";
import { useUser } from "../lib/auth.ts";
import { characterQueryOptions } from "../features/characters/api/get-character.ts";
import { CharacterForm } from "../features/characters/components/character-form.tsx";
import { usePopularTags } from "../features/tags/api/get-tags.ts";
import { CharacterFormPage } from "./character-form-page.tsx";

// Uppy and its CSS load only when the section is shown.
const ExpressionsSection = lazy(() =>
  import("../features/characters/components/expressions-section.tsx").then((module) => ({ default: module.ExpressionsSection })),
);

export function EditCharacterPage() {
  const { id = "" } = useParams();
  const { user, isLoading } = useUser();
  // GET /api/characters/:id shows owners their inactive characters too.
  const query = useQuery({ ...characterQueryOptions(id), enabled: user !== null });
  const { tags, isLoading: tagsLoading } = usePopularTags();

  if (isLoading) return <PageSpinner />;
  if (!user) return <SignInRequired message="Please sign in to edit a character" />;
  if (query.isPending) {
    return (
      <div className="flex min-h-[50vh] flex-col items-center justify-center gap-3" role="status">
        <LoaderCircle aria-hidden="true" className="size-8 animate-spin text-primary" />
        <p className="text-muted-foreground">Loading character...</p>
      </div>
    );
  }
  // Missing (404), or not this person's to edit (the server would answer 403).
  if (query.isError || query.data.creatorId !== user.id) return <CharacterNotFound />;

  return (
    <CharacterFormPage title="Edit Character" subtitle={`Update ${query.data.name}'s details.`}>
      <CharacterForm
        key={`${query.data.id}:${query.data.updatedAt}`}
        character={query.data}
        popularTags={tags}
        popularLoading={tagsLoading}
      />
      <Suspense fallback={null}>
        <ExpressionsSection character={query.data} />
      </Suspense>
    </CharacterFormPage>
  );
}

function CharacterNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>Character Not Found — Fabled</title>
      <SearchX aria-hidden="true" className="mb-4 size-12 text-muted-foreground" />
      <h1 className="text-2xl font-bold">Character Not Found</h1>
      <p className="mt-2 text-muted-foreground">This character doesn't exist, or it isn't one of yours to edit.</p>
      <Button asChild variant="secondary" className="mt-6">
        <Link to="/my-characters">Go to My Characters</Link>
      </Button>
    </div>
  );
}
