/** `/character/:id` — one character's page, with its comments below. */
import { useQueryClient } from "@tanstack/react-query";
import { Ghost } from "lucide-react";
import { Link, useNavigate, useParams } from "react-router";
import { Button } from "../components/ui/button.tsx";
import { toast } from "../components/ui/use-toast.ts";
import { isUnauthorizedError } from "../lib/api-client.ts";
import { useUser } from "../lib/auth.ts";
import { notifyUnauthorized } from "../lib/unauthorized.ts";
import { characterQueryOptions, useCharacter } from "../features/characters/api/get-character.ts";
import { isCharacterListKey } from "../features/characters/api/get-characters.ts";
import { CharacterProfile, CharacterProfileSkeleton } from "../features/characters/components/character-profile.tsx";
import { useCreateConversation } from "../features/chat/api/create-conversation.ts";
import { ContinueChatLink } from "../features/chat/components/continue-chat-link.tsx";
import { ImportChatButton } from "../features/chat/components/import-chat-button.tsx";
import { StartGroupChatButton } from "../features/chat/components/start-group-chat.tsx";
import { CommentsSection } from "../features/comments/components/comments-section.tsx";

const COMMENTS_ID = "comments";

export function CharacterPage() {
  const { id = "" } = useParams();
  const query = useCharacter(id);
  const { user, isLoading: userLoading } = useUser();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const createConversation = useCreateConversation();

  if (query.isPending) return <CharacterProfileSkeleton />;
  if (query.isError) return <CharacterNotFound />;

  // SPEC.md §4 "Start chat": create the conversation, then open it; visitors sign in first (§8).
  const character = query.data;
  const startChat = () => {
    // Still asking who this is: let the server decide (a 401 lands in onError below).
    if (!user && !userLoading) {
      notifyUnauthorized("start a chat");
      return;
    }
    if (createConversation.isPending) return;
    createConversation.mutate(character, {
      onSuccess: (conversation) => navigate(`/chat/${conversation.id}`),
      onError: (error) => {
        if (isUnauthorizedError(error)) notifyUnauthorized("start a chat");
        else toast({ title: "Error", description: "Failed to start chat. Please try again.", variant: "destructive" });
      },
    });
  };

  // A comment changes the character's commentCount, here and on Home's cards.
  const refreshCounts = () => {
    void queryClient.invalidateQueries({ queryKey: characterQueryOptions(id).queryKey, exact: true });
    void queryClient.invalidateQueries({ predicate: ({ queryKey }) => isCharacterListKey(queryKey) });
  };

  return (
    <>
      <title>{`${query.data.name} — Fabled`}</title>
      <CharacterProfile
        character={query.data}
        onStartChat={startChat}
        startingChat={createConversation.isPending}
        chatActions={
          <>
            <StartGroupChatButton character={query.data} className="w-full sm:w-auto" />
            <ContinueChatLink characterId={query.data.id} className="w-full sm:w-auto" />
            <ImportChatButton characterId={query.data.id} className="w-full sm:w-auto" />
          </>
        }
        commentsId={COMMENTS_ID}
      >
        <CommentsSection
          id={COMMENTS_ID}
          characterId={query.data.id}
          commentCount={query.data.commentCount}
          onChanged={refreshCounts}
        />
      </CharacterProfile>
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
