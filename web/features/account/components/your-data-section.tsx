/**
 * "Your data" on /profile: "Download my data" (the export: a zip of
 * everything the person made or chose) and "Delete account", which asks
 * them to type their username before anything is deleted, then signs this
 * browser out and goes home.
 */
import { Download, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { useNavigate } from "react-router";
import type { CurrentUser } from "../../../../schema/api.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Card, CardContent, CardHeader } from "../../../components/ui/card.tsx";
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "../../../components/ui/dialog.tsx";
import { Input } from "../../../components/ui/input.tsx";
import { toast } from "../../../components/ui/use-toast.ts";
import { errorStatus, serverErrorText } from "../../../lib/api-client.ts";
import { useDeleteAccount } from "../api/delete-account.ts";
import { useDownloadExport } from "../api/download-export.ts";

/** Whether what the person typed is their username (with or without "@", any letter case), as the server checks. */
export function confirmsUsername(typed: string, username: string): boolean {
  const name = typed.trim().replace(/^@?/, "@").toLowerCase();
  return name.length > 1 && name === username.toLowerCase();
}

function DeleteAccountDialog({ user, open, onOpenChange }: { user: CurrentUser; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [typed, setTyped] = useState("");
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  const inputId = useId();
  const confirmed = confirmsUsername(typed, user.username);

  const onDelete = () =>
    remove.mutate(typed.trim(), {
      onSuccess: () => {
        navigate("/", { replace: true });
        toast({ title: "Account deleted", description: "Your account and your data have been deleted. Goodbye." });
      },
      onError: (error) =>
        toast({ title: "Error", description: serverErrorText(error) ?? "Failed to delete your account", variant: "destructive" }),
    });

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setTyped("");
        onOpenChange(next);
      }}
    >
      <DialogContent role="alertdialog">
        <DialogHeader>
          <DialogTitle>Delete your account?</DialogTitle>
          <DialogDescription asChild>
            <div className="space-y-2">
              <p>
                Your characters, chats, the rooms you own, personas, model connections and pictures are deleted, and you are signed out
                everywhere. This cannot be undone.
              </p>
              <p>
                Comments that others replied to stay as “[deleted]”; your messages in other people's rooms stay, from “a deleted account”.
                Your username stays reserved for 30 days.
              </p>
            </div>
          </DialogDescription>
        </DialogHeader>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (confirmed && !remove.isPending) onDelete();
          }}
          className="space-y-2"
        >
          <label htmlFor={inputId} className="text-sm font-medium">
            Type <strong className="text-foreground">{user.username}</strong> to confirm
          </label>
          <Input id={inputId} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" spellCheck={false} placeholder={user.username} />
          <DialogFooter className="pt-2">
            <DialogClose asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="destructive" disabled={!confirmed || remove.isPending}>
              {remove.isPending ? "Deleting..." : "Delete my account"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function YourDataSection({ user }: { user: CurrentUser }) {
  const download = useDownloadExport();
  const [deleting, setDeleting] = useState(false);

  const onDownload = () =>
    download.mutate(undefined, {
      onSuccess: (name) => toast({ title: "Download started", description: `Your data is saved as ${name}.` }),
      onError: (error) =>
        toast({
          title: errorStatus(error) === 429 ? "Please wait a moment" : "Error",
          description: serverErrorText(error) ?? "Failed to download your data",
          variant: "destructive",
        }),
    });

  return (
    <Card role="region" className="mt-6" aria-labelledby="your-data-heading">
      <CardHeader className="p-6 pb-2">
        <h2 id="your-data-heading" className="text-xl font-bold tracking-tight">
          Your data
        </h2>
        <p className="text-sm text-muted-foreground">Take everything you made with you, or leave for good.</p>
      </CardHeader>
      <CardContent className="space-y-6 p-6 pt-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <div className="space-y-1">
            <h3 className="text-sm font-semibold">Download my data</h3>
            <p className="text-sm text-muted-foreground">
              A zip of your profile, characters (.charx), lorebooks, chats (SillyTavern .jsonl), comments, favorites, follows, personas and
              model connections (without their keys).
            </p>
          </div>
          <Button variant="secondary" className="shrink-0 self-start sm:self-center" onClick={onDownload} disabled={download.isPending}>
            <Download aria-hidden="true" /> {download.isPending ? "Preparing..." : "Download my data"}
          </Button>
        </div>
        <div className="flex flex-col gap-3 border-t border-border pt-6 sm:flex-row sm:items-center sm:justify-between">
          <div className="space-y-1">
            <h3 className="text-sm font-semibold text-red-300">Delete account</h3>
            <p className="text-sm text-muted-foreground">Delete your account and everything you made. You will be asked to type your username.</p>
          </div>
          <Button variant="destructive" className="shrink-0 self-start sm:self-center" onClick={() => setDeleting(true)}>
            <Trash2 aria-hidden="true" /> Delete account
          </Button>
        </div>
      </CardContent>
      <DeleteAccountDialog user={user} open={deleting} onOpenChange={setDeleting} />
    </Card>
  );
}
