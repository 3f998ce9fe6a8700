/**
 * "Continue chat" on a character's page, beside Start Chat (which always
 * starts a new one, SPEC.md §4): shown when the signed-in person already
 * has a chat with this character, and opens the most recent one.
 */
import { History } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { useUser } from "../../../lib/auth.ts";
import { useLatestConversationWith } from "../api/get-conversations.ts";

export function ContinueChatLink({ characterId, className }: { characterId: number; className?: string }) {
  const { user } = useUser();
  const latest = useLatestConversationWith(characterId, user !== null);
  if (!latest.data) return null;
  return (
    <Button asChild variant="outline" size="lg" className={className}>
      <Link to={`/chat/${latest.data.id}`}>
        <History aria-hidden="true" />
        Continue chat
      </Link>
    </Button>
  );
}
