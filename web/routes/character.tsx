/** `/character/:id` — one character's page. */
import { Ghost } from "lucide-react";
import { Link, useParams } from "react-router";
import { Button } from "../components/ui/button.tsx";
import { redirectToLogin, useUser } from "../lib/auth.ts";
import { useCharacter } from "../features/characters/api/get-character.ts";
import { CharacterProfile, CharacterProfileSkeleton } from "../features/characters/components/character-profile.tsx";

export function CharacterPage() {
  const { id = "" } = useParams();
  const query = useCharacter(id);
  const { user } = useUser();

  if (query.isPending) return <CharacterProfileSkeleton />;
  if (query.isError) return <CharacterNotFound />;

  // Visitors sign in first (SPEC.md §4); signed-in favorite and chat arrive with accounts and chat.
  const requireSignIn = () => {
    if (!user) redirectToLogin();
  };

  return (
    <>
      <title>{`${query.data.name} — Fabled`}</title>
      <CharacterProfile character={query.data} onFavorite={requireSignIn} onStartChat={requireSignIn} />
    </>
  );
}

function CharacterNotFound() {
  return (
    <div className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <title>Character not found — Fabled</title>
      <Ghost aria-hidden="true" className="mb-4 size-12 text-muted-foreground" />
      <h1 className="text-2xl font-bold">Character not found</h1>
      <p className="mt-2 text-muted-foreground">This character may have been removed or never existed.</p>
      <Button asChild variant="secondary" className="mt-6">
        <Link to="/">Back to Home</Link>
      </Button>
    </div>
  );
}
