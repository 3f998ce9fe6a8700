/** `/chats` — My Chats: the person's conversations, to find them again; visitors are asked to sign in. */
import { PageSpinner } from "../components/page-spinner.tsx";
import { SignInRequired } from "../components/sign-in-required.tsx";
import { BackHomeLink } from "../components/back-home-link.tsx";
import { useUser } from "../lib/auth.ts";
import { ConversationList } from "../features/chat/components/conversation-list.tsx";

export function ChatsPage() {
  const { user, isLoading } = useUser();

  if (isLoading) return <PageSpinner />;
  if (!user) return <SignInRequired message="Please sign in to view your chats" />;

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 md:px-6 md:py-10">
      <title>My Chats — Fabled</title>
      <BackHomeLink />
      <header className="mt-4 mb-8">
        <h1 className="text-3xl font-bold tracking-tight">My Chats</h1>
        <p className="mt-1 text-muted-foreground">Pick up where you left off.</p>
      </header>
      <ConversationList />
    </div>
  );
}
