/**
 * Blocking from a person's page `/u/{name}` (issue 35): a "More actions"
 * menu with Block (after the confirmation), or, once blocked, a note and
 * Unblock in place of Follow. Signed-in people only, never on one's own page.
 */
import { Ban, Ellipsis } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button.tsx";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "../../../components/ui/dropdown-menu.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { serverErrorText } from "../../../lib/api-client.ts";
import { useSetBlocked } from "../api/blocks.ts";
import { BlockDialog } from "./block-dialog.tsx";

/** "⋯" beside Follow, holding Block. */
export function ProfileBlockMenu({ username }: { username: string }) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size="icon" aria-label={`More actions for ${username}`} className="data-[state=open]:bg-surface">
            <Ellipsis aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-56">
          <DropdownMenuItem onSelect={() => setConfirming(true)} className="text-red-300">
            <Ban aria-hidden="true" /> Block {username}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <BlockDialog username={confirming ? username : null} onClose={() => setConfirming(false)} />
    </>
  );
}

/** Unblock, with a toast either way. */
export function UnblockButton({ username, className }: { username: string; className?: string }) {
  const setBlocked = useSetBlocked();
  const pending = setBlocked.isPending && setBlocked.variables?.username === username;
  return (
    <Button
      variant="outline"
      className={className}
      disabled={pending}
      aria-label={`Unblock ${username}`}
      onClick={() =>
        setBlocked.mutate(
          { username, block: false },
          {
            onSuccess: () => toast({ title: `${username} unblocked`, description: "Their comments show again. Follows and chats are not restored." }),
            onError: (error) => toast({ title: "Error", description: serverErrorText(error) ?? "Failed to unblock", variant: "destructive" }),
          },
        )
      }
    >
      Unblock
    </Button>
  );
}
