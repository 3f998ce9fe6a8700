/**
 * The "Blocked people" card on /profile (issue 35): everyone the person
 * blocked, newest first, each linking to their page, with Unblock.
 */
import { formatDistanceToNow } from "date-fns";
import { ShieldBan } from "lucide-react";
import { Link } from "react-router";
import { creatorPath } from "../../../../schema/usernames.ts";
import { ListEmpty, ListLoadFailed, ListLoading } from "../../../components/list-states.tsx";
import { Avatar } from "../../../components/ui/avatar.tsx";
import { Card, CardContent, CardHeader } from "../../../components/ui/card.tsx";
import { useBlocks } from "../api/blocks.ts";
import { UnblockButton } from "./profile-block-actions.tsx";

export function BlockedPeopleSection() {
  const query = useBlocks();

  let body;
  if (query.isPending) {
    body = <ListLoading label="Loading the people you blocked" rowClassName="h-14 rounded-xl" />;
  } else if (query.isError) {
    body = <ListLoadFailed title="Failed to load the people you blocked" onRetry={() => void query.refetch()} />;
  } else if (query.data.length === 0) {
    body = (
      <ListEmpty icon={ShieldBan} title="Nobody blocked">
        Block someone from their page or a comment&apos;s menu. They won&apos;t be told.
      </ListEmpty>
    );
  } else {
    body = (
      <ul aria-label="Blocked people" className="divide-y divide-border rounded-xl border border-border">
        {query.data.map((person) => {
          const shown = person.name?.trim() || person.username.slice(1);
          return (
            <li key={person.username} className="flex items-center gap-3 px-4 py-3">
              <Avatar src={person.avatarUrl} fallback={[...shown][0]?.toLocaleUpperCase() ?? "?"} className="size-10" />
              <div className="min-w-0 flex-1">
                <Link to={creatorPath(person.username)} className="block truncate font-medium hover:underline">
                  {shown}
                </Link>
                <p className="text-xs text-muted-foreground">
                  <span className="break-all">{person.username}</span>
                  <span aria-hidden="true" className="hidden sm:inline"> · </span>
                  <br className="sm:hidden" />
                  blocked{" "}
                  <time dateTime={person.blockedAt} title={new Date(person.blockedAt).toLocaleString()}>
                    {formatDistanceToNow(new Date(person.blockedAt), { addSuffix: true })}
                  </time>
                </p>
              </div>
              <UnblockButton username={person.username} className="shrink-0" />
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <Card role="region" className="mt-6" aria-labelledby="blocked-people-heading">
      <CardHeader className="space-y-1 p-6 pb-2">
        <h2 id="blocked-people-heading" className="text-xl font-bold tracking-tight">
          Blocked people
        </h2>
        <p className="text-sm text-muted-foreground">
          They can&apos;t follow you, comment on your characters, reply to your comments or join your chats, and you don&apos;t see
          their comments. Nobody is told.
        </p>
      </CardHeader>
      <CardContent className="p-6 pt-4">{body}</CardContent>
    </Card>
  );
}
