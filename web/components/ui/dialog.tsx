import * as DialogPrimitive from "@radix-ui/react-dialog";
import { type ComponentProps, useState } from "react";
import { cn } from "../../lib/utils.ts";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

/**
 * The control a dialog opening now came from: the focused element, or, for
 * an item of a menu (which goes away with the menu), the button that opened
 * the menu (Radix names it in the menu's `aria-labelledby`). Null when the
 * focus is nowhere in particular.
 */
function openerOfDialog(): HTMLElement | null {
  if (typeof document === "undefined") return null;
  const focused = document.activeElement;
  if (!(focused instanceof HTMLElement) || focused === document.body) return null;
  const menu = focused.closest('[role="menu"]');
  const trigger = menu?.getAttribute("aria-labelledby");
  const menuButton = trigger ? document.getElementById(trigger) : null;
  return menuButton ?? focused;
}

/**
 * The dialog box, centred over a dimmed page. `role="alertdialog"` (for a
 * confirmation) makes a click outside do nothing, as WAI-ARIA's alert dialog
 * pattern asks: the person answers with a button or Escape.
 *
 * On Escape or close the focus goes back to the control that opened it
 * (WAI-ARIA's dialog pattern), also for a dialog mounted only while open
 * and one opened from a menu item (then the menu's button), unless
 * `onCloseAutoFocus` sends it elsewhere (prevents the default).
 */
export function DialogContent({ className, role, onPointerDownOutside, onCloseAutoFocus, ...props }: ComponentProps<typeof DialogPrimitive.Content>) {
  // Read once, on the first render: what had the focus before the dialog took it.
  const [opener] = useState(openerOfDialog);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm animate-fade-in" />
      <DialogPrimitive.Content
        // Radix's own role="dialog" would be overwritten by an undefined `role`.
        role={role ?? "dialog"}
        onPointerDownOutside={(event) => {
          if (role === "alertdialog") event.preventDefault();
          onPointerDownOutside?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          if (event.defaultPrevented || !opener?.isConnected) return;
          event.preventDefault();
          opener.focus();
        }}
        className={cn(
          "fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-2xl border border-border bg-popover p-6 shadow-2xl shadow-black/50 animate-fade-in focus:outline-none",
          className,
        )}
        {...props}
      />
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col gap-2 text-left", className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("flex flex-col-reverse gap-2 sm:flex-row sm:justify-end", className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn("text-lg font-semibold", className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn("text-sm text-muted-foreground", className)} {...props} />;
}
