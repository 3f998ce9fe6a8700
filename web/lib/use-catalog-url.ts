/**
 * Keeps Home's filters and Home's address in step (lib/catalog-url.ts):
 *
 * - An address Home did not write itself (a shared link, a tag link, the
 *   header's search from another page, Back/Forward) is applied to the
 *   filters. An address without `nsfw=true` leaves NSFW as the person has
 *   it, except on Back/Forward within Home, which step back to NSFW off too
 *   (without changing the remembered choice). `nsfw=true` turns NSFW on once it is known whether the person
 *   confirmed their age — asking them if not.
 * - A change of the filters on Home writes the address: a new history entry
 *   for a tab, a tag, the tag mode or NSFW; typing in the search box replaces
 *   the entry, so Back does not step through every letter.
 */
import { useEffect, useRef } from "react";
import { useLocation, useNavigate, useNavigationType } from "react-router";
import { useCatalogFilters } from "./catalog-filters-context.tsx";
import { catalogSearch, differsInSearchOnly, parseCatalogSearch } from "./catalog-url.ts";

export function useCatalogUrl(): void {
  const { filters, dispatch, setShowNsfw, askingAge, nsfwSettled, setHomeHref } = useCatalogFilters();
  const location = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  /** The address Home wrote last: its own writes are never applied back. */
  const written = useRef<string | null>(null);
  /** The history entry whose address was last looked at. */
  const handledKey = useRef<string | null>(null);
  /** The address asked for NSFW on, not applied yet (waiting to know about the person's age). */
  const pendingNsfw = useRef(false);
  /** The next write corrects the address rather than records a step: it replaces the entry. */
  const replaceNext = useRef(false);

  useEffect(() => {
    if (handledKey.current !== location.key) {
      const withinHome = handledKey.current !== null && navigationType === "POP";
      handledKey.current = location.key;
      if (location.search !== written.current) {
        const url = parseCatalogSearch(location.search);
        replaceNext.current = true;
        pendingNsfw.current = url.showNsfw === true && !filters.showNsfw;
        if (url.showNsfw === null && filters.showNsfw && withinHome) setShowNsfw(false, { remember: false });
        dispatch({ type: "fromUrl", url });
        // The reducer answers the same state when nothing changed; otherwise this runs again with the new filters.
        if (
          url.tags.join(",") !== filters.tags.join(",") ||
          url.tagMode !== filters.tagMode ||
          url.search !== filters.search ||
          url.tab !== filters.tab
        ) {
          return;
        }
      }
    }
    if (pendingNsfw.current) {
      if (!nsfwSettled) return;
      pendingNsfw.current = false;
      replaceNext.current = true;
      if (!filters.showNsfw) {
        setShowNsfw(true, { remember: false });
        return;
      }
    }
    // While the 18+ question is open the address keeps saying what was asked for.
    if (askingAge) return;
    const desired = catalogSearch(filters);
    setHomeHref(`/${desired}`);
    if (desired === location.search) {
      written.current = desired;
      replaceNext.current = false;
      return;
    }
    const replace = replaceNext.current || differsInSearchOnly(location.search, desired);
    replaceNext.current = false;
    written.current = desired;
    navigate({ pathname: "/", search: desired }, { replace });
  }, [location.key, location.search, navigationType, filters, nsfwSettled, askingAge, dispatch, setShowNsfw, setHomeHref, navigate]);
}
