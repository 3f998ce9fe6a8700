/**
 * The favorite heart of a character card or page, wired to the person
 * (SPEC.md §4 "Favorite"): signed-in people toggle it optimistically; a
 * visitor is sent to sign in.
 */
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError } from "../../../lib/api-client.ts";
import { redirectToLogin, useUser } from "../../../lib/auth.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { useFavoriteStatus } from "../api/get-favorite-status.ts";
import { useToggleFavorite } from "../api/toggle-favorite.ts";
import { FavoriteButton } from "./character-stats.tsx";

interface CharacterFavoriteButtonProps {
  /** `isFavorited`: present on list items for a signed-in person (GET /api/characters). */
  character: { id: number; name: string; favoriteCount: number; isFavorited?: boolean };
  /**
   * "grid": Home's cards — a visitor goes straight to sign-in and a failure
   * rolls back silently (SPEC.md §8). "page": the character page — the
   * Unauthorized toast before the redirect and "Failed to update favorite".
   */
  surface: "grid" | "page";
  className?: string;
}

export function CharacterFavoriteButton({ character, surface, className }: CharacterFavoriteButtonProps) {
  const { user } = useUser();
  const status = useFavoriteStatus(character.id, user !== null, character.isFavorited);
  const toggle = useToggleFavorite(character.id, (error) => {
    if (isUnauthorizedError(error)) {
      if (surface === "grid") redirectToLogin();
      else notifyUnauthorized("favorite");
      return;
    }
    if (surface === "page") {
      toast({ title: "Error", description: "Failed to update favorite", variant: "destructive" });
    }
  });

  const onToggle = () => {
    if (!user) {
      if (surface === "grid") redirectToLogin();
      else notifyUnauthorized("favorite");
      return;
    }
    toggle.mutate();
  };

  return (
    <FavoriteButton
      characterName={character.name}
      count={character.favoriteCount}
      isFavorited={user !== null && status.data?.isFavorited === true}
      onToggle={onToggle}
      className={className}
    />
  );
}
