/** "Voice mode": each new reply is read aloud as it finishes (DESIGN.md "Voices"). */
import { useId } from "react";
import { Switch } from "../../../components/ui/switch.tsx";

export function VoiceModeSwitch({ checked, onCheckedChange }: { checked: boolean; onCheckedChange: (on: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <Switch id={id} checked={checked} onCheckedChange={onCheckedChange} className="h-5 w-9 [&>span]:size-4 [&>span]:data-[state=checked]:translate-x-4" />
      <label htmlFor={id} className="cursor-pointer text-xs text-muted-foreground">
        Voice mode
      </label>
    </div>
  );
}
