/**
 * The card's alternate greetings (`alternate_greetings`): other first
 * messages a chat may open with, as a list one adds to and removes from.
 */
import { Plus, Trash2 } from "lucide-react";
import { Button } from "../../../components/ui/button.tsx";
import { Textarea } from "../../../components/ui/textarea.tsx";
import { CHARACTER_LIMITS } from "../../../../schema/inputs.ts";

interface AlternateGreetingsFieldProps {
  value: string[];
  onChange: (greetings: string[]) => void;
  /** Messages by row index. */
  errors: Partial<Record<number, string>>;
}

export function AlternateGreetingsField({ value, onChange, errors }: AlternateGreetingsFieldProps) {
  const full = value.length >= CHARACTER_LIMITS.alternateGreetings;
  return (
    <fieldset className="space-y-3" aria-describedby="alternate-greetings-hint">
      <legend className="text-sm font-medium">Alternate greetings (Optional)</legend>
      <p id="alternate-greetings-hint" className="text-xs leading-relaxed text-muted-foreground">
        Other opening messages a new chat can start with, so conversations don't always begin the same way.
      </p>
      {value.length > 0 && (
        <ol className="space-y-3">
          {value.map((greeting, index) => {
            const id = `character-alternate-greeting-${index}`;
            const error = errors[index];
            return (
              <li key={index} className="space-y-1.5">
                <div className="flex items-center justify-between gap-2">
                  <label htmlFor={id} className="text-xs font-medium text-muted-foreground">
                    Alternate greeting {index + 1}
                  </label>
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Remove alternate greeting ${index + 1}`}
                    onClick={() => onChange(value.filter((_, i) => i !== index))}
                    className="text-muted-foreground hover:text-red-300"
                  >
                    <Trash2 aria-hidden="true" /> Remove
                  </Button>
                </div>
                <Textarea
                  id={id}
                  value={greeting}
                  rows={3}
                  placeholder="*{{char}} looks up as you walk in.* Oh! I wasn't expecting anyone today."
                  onChange={(e) => onChange(value.map((g, i) => (i === index ? e.target.value : g)))}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                />
                {error && (
                  <p id={`${id}-error`} className="text-sm font-medium text-red-400">
                    {error}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <Button variant="outline" size="sm" onClick={() => onChange([...value, ""])} disabled={full}>
        <Plus aria-hidden="true" /> Add alternate greeting
      </Button>
    </fieldset>
  );
}
