/**
 * Follow / Following on a creator's page (issue 16): optimistic, rolled back
 * with an error toast on failure; a visitor gets the Unauthorized toast and
 * goes to sign in (SPEC.md §8). Not shown on one's own page.
 */
import { UserCheck, UserPlus } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { isUnauthorizedError, serverErrorText } from "../../../lib/api-client.ts";
import { useUser } from "../../../lib/auth.ts";
import { notifyUnauthorized } from "../../../lib/unauthorized.ts";
import { useFollowCreator } from "../api/follow-creator.ts";

interface FollowButtonProps {
  username: string;
  isFollowing: boolean;
}

export function FollowButton({ username, isFollowing }: FollowButtonProps) {
  const { user } = useUser();
  const follow = useFollowCreator(username, (error) => {
    if (isUnauthorizedError(error)) notifyUnauthorized("follow creators");
    // A refusal says why ("You can't follow this person.").
    else toast({ title: "Error", description: serverErrorText(error) ?? "Failed to update follow", variant: "destructive" });
  });
  const onClick = () => {
    if (!user) {
      notifyUnauthorized("follow creators");
      return;
    }
    follow.mutate(!isFollowing);
  };
  return (
    <Button
      variant={isFollowing ? "outline" : "gradient"}
      onClick={onClick}
      aria-pressed={isFollowing}
      className="min-w-32"
    >
      {isFollowing ? <UserCheck aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
      {isFollowing ? "Following" : "Follow"}
    </Button>
  );
}
