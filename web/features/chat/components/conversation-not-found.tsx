import { MessageSquareOff } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button.tsx";
import { Card } from "../../../components/ui/card.tsx";

/** A conversation that does not exist or is someone else's, or failed to load (SPEC.md §2 "Chat"). */
export function ConversationNotFound() {
  return (
    <div className="mx-auto max-w-md px-4 py-20">
      <title>Conversation not found — Fabled</title>
      <Card className="flex flex-col items-center px-6 py-12 text-center">
        <MessageSquareOff aria-hidden="true" className="mb-4 size-12 text-muted-foreground" />
        <h1 className="text-2xl font-bold">Conversation not found</h1>
        <p className="mt-2 text-muted-foreground">This conversation doesn't exist or isn't yours.</p>
        <Button asChild variant="gradient" className="mt-6">
          <Link to="/">Back to Home</Link>
        </Button>
      </Card>
    </div>
  );
}
