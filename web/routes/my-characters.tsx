/**
 * `/my-characters` — My Characters (SPEC.md §2): Back, Create Character and
 * Import card, then the person's characters; visitors are asked to sign in.
 */
import { Plus } from "lucide-react";
import { Link } from "react-router";
import { PageSpinner } from "../components/page-spinner.tsx";
import { SignInRequired } from "../components/sign-in-required.tsx";
import { BackHomeLink } from "../components/back-home-link.tsx";
import { Button } from "../components/ui/button.tsx";
import { useUser } from "../lib/auth.ts";
import { ImportCardButton } from "../features/characters/components/import-card-button.tsx";
import { MyCharactersList } from "../features/characters/components/my-characters-list.tsx";

export function MyCharactersPage() {
  const { user, isLoading } = useUser();

  if (isLoading) return <PageSpinner />;
  if (!user) return <SignInRequired message="Please sign in to view your characters" />;

  return (
    <div className="mx-auto max-w-[1400px] px-4 py-6 md:px-6 md:py-10">
      <title>My Characters — Fabled</title>
      <BackHomeLink />
      <header className="mt-4 mb-8 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">My Characters</h1>
          <p className="mt-1 text-muted-foreground">Create, edit and manage the characters you've made.</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <ImportCardButton />
          <Button asChild variant="gradient">
            <Link to="/create-character">
              <Plus aria-hidden="true" /> Create Character
            </Link>
          </Button>
        </div>
      </header>
      <MyCharactersList />
    </div>
  );
}
