/**
 * A small labelled switch under the composer: "Voice mode" (each new reply
 * is read aloud as it finishes, DESIGN.md "Voices") and "Visual novel" (the
 * speakers' faces large above the composer, issue 37).
 */
import { useId } from "react";
import { Switch } from "../../../components/ui/switch.tsx";

export function FooterSwitch({ label, checked, onCheckedChange }: { label: string; checked: boolean; onCheckedChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} className="h-5 w-9 [&>span]:size-4 [&>span]:data-[state=checked]:translate-x-4" />
      <label htmlFor={id} className="cursor-pointer text-xs text-muted-foreground">
        {label}
      </label>
    </div>
  );
}
