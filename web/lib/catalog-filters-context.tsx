/**
 * Holds Home's catalog filters above the routes, so the header's search box
 * can drive them and a visitor coming back from a character page finds the
 * same tags, tab and loaded pages (Home keeps them in its address too:
 * lib/catalog-url.ts).
 *
 * The NSFW choice lives here as well (issue 26 "Adult content,
 * deliberately"): off for a new visitor; remembered in this browser for
 * visitors (lib/nsfw-preference.ts) and in the profile for signed-in people
 * (`/api/profile/content`, which wins once it has answered). The first time
 * anyone turns it on they confirm they are 18 or older in a dialog (loaded
 * only then); the confirmation is recorded with its time.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type Dispatch, type ReactNode, Suspense, createContext, lazy, use, useCallback, useEffect, useReducer, useRef, useState } from "react";
import { toast } from "../components/ui/use-toast.ts";
import { useUser } from "./auth.ts";
import {
  type CatalogFilters,
  type CatalogFiltersAction,
  INITIAL_CATALOG_FILTERS,
  catalogFiltersReducer,
} from "./catalog-filters.ts";
import { contentSettingsQueryOptions, saveContentSettings } from "./content-settings.ts";
import { storeNsfwChoice, storedAdultConfirmation, storedShowNsfw } from "./nsfw-preference.ts";

const AgeConfirmDialog = lazy(() => import("../components/age-confirm-dialog.tsx").then((m) => ({ default: m.AgeConfirmDialog })));

export interface SetShowNsfwOptions {
  /** Keep the choice (this browser or the profile); false for an address that says `nsfw=true` (default true). */
  remember?: boolean;
}

interface CatalogFiltersValue {
  filters: CatalogFilters;
  dispatch: Dispatch<CatalogFiltersAction>;
  /**
   * Shows or hides NSFW. Turning it on without a recorded 18+ confirmation
   * asks first (NSFW stays off when the person cancels).
   */
  setShowNsfw: (showNsfw: boolean, options?: SetShowNsfwOptions) => void;
  /** The 18+ question is open. */
  askingAge: boolean;
  /** It is known whether this person has confirmed being 18 or older (their account has answered). */
  nsfwSettled: boolean;
  /** Home's address as last shown (e.g. "/?tags=magic"): where "Back to Characters" returns. */
  homeHref: string;
  setHomeHref: (href: string) => void;
}

const CatalogFiltersContext = createContext<CatalogFiltersValue | null>(null);

export function CatalogFiltersProvider({ children }: { children: ReactNode }) {
  const [filters, dispatch] = useReducer(catalogFiltersReducer, undefined, () => ({
    ...INITIAL_CATALOG_FILTERS,
    showNsfw: storedShowNsfw(),
  }));
  const [homeHref, setHomeHref] = useState("/");
  const { user, isLoading } = useUser();
  const userId = user?.id ?? null;
  const queryClient = useQueryClient();
  const settings = useQuery({ ...contentSettingsQueryOptions(), enabled: userId !== null });
  const save = useMutation({
    mutationFn: saveContentSettings,
    onSuccess: (saved) => queryClient.setQueryData(contentSettingsQueryOptions().queryKey, saved),
  });
  const { mutate } = save;
  const [asking, setAsking] = useState<{ onYes: () => void } | null>(null);
  const [dialogLoaded, setDialogLoaded] = useState(false);
  const nsfwSettled = !isLoading && (userId === null || settings.data !== undefined || settings.isError);

  // Whose choice the filters show: this browser's for a visitor, the account's once it answers.
  // A choice made on this page before the account answered is kept.
  const settledFor = useRef<string | null | undefined>(undefined);
  const chosenHere = useRef(false);
  const accountShowNsfw = settings.data?.showNsfw;
  useEffect(() => {
    if (isLoading || settledFor.current === userId) return;
    if (userId !== null && accountShowNsfw === undefined) return;
    const first = settledFor.current === undefined;
    settledFor.current = userId;
    if (first && chosenHere.current) return;
    dispatch({ type: "setShowNsfw", showNsfw: userId === null ? storedShowNsfw() : accountShowNsfw! });
  }, [isLoading, userId, accountShowNsfw]);

  const adultConfirmed = userId === null ? storedAdultConfirmation() !== null : settings.data?.adultConfirmedAt != null;

  const setShowNsfw = useCallback(
    (showNsfw: boolean, { remember = true }: SetShowNsfwOptions = {}) => {
      const apply = (confirmAdult: boolean) => {
        chosenHere.current = true;
        dispatch({ type: "setShowNsfw", showNsfw });
        if (!remember && !confirmAdult) return;
        if (userId === null) {
          storeNsfwChoice(showNsfw, confirmAdult ? Date.now() : null);
          return;
        }
        mutate(confirmAdult ? { showNsfw, confirmAdult: true } : { showNsfw }, {
          onError: () => toast({ title: "Error", description: "Failed to save your NSFW setting", variant: "destructive" }),
        });
      };
      if (!showNsfw || adultConfirmed) {
        apply(false);
        return;
      }
      setDialogLoaded(true);
      setAsking({ onYes: () => apply(true) });
    },
    [userId, adultConfirmed, mutate],
  );

  return (
    <CatalogFiltersContext
      value={{ filters, dispatch, setShowNsfw, askingAge: asking !== null, nsfwSettled, homeHref, setHomeHref }}
    >
      {children}
      {dialogLoaded && (
        <Suspense fallback={null}>
          <AgeConfirmDialog
            open={asking !== null}
            onConfirm={() => {
              asking?.onYes();
              setAsking(null);
            }}
            onCancel={() => setAsking(null)}
          />
        </Suspense>
      )}
    </CatalogFiltersContext>
  );
}

/** The current filters and their dispatcher; throws outside `CatalogFiltersProvider`. */
export function useCatalogFilters(): CatalogFiltersValue {
  const value = use(CatalogFiltersContext);
  if (!value) throw new Error("useCatalogFilters must be used inside CatalogFiltersProvider");
  return value;
}
