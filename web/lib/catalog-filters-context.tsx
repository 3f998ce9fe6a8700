/**
 * Holds Home's catalog filters above the routes, so the header's search box
 * can drive them and a visitor coming back from a character page finds the
 * same tags, tab and loaded pages.
 */
import { type Dispatch, type ReactNode, createContext, use, useReducer } from "react";
import {
  type CatalogFilters,
  type CatalogFiltersAction,
  INITIAL_CATALOG_FILTERS,
  catalogFiltersReducer,
} from "./catalog-filters.ts";

interface CatalogFiltersValue {
  filters: CatalogFilters;
  dispatch: Dispatch<CatalogFiltersAction>;
}

const CatalogFiltersContext = createContext<CatalogFiltersValue | null>(null);

export function CatalogFiltersProvider({ children }: { children: ReactNode }) {
  const [filters, dispatch] = useReducer(catalogFiltersReducer, INITIAL_CATALOG_FILTERS);
  return <CatalogFiltersContext value={{ filters, dispatch }}>{children}</CatalogFiltersContext>;
}

/** The current filters and their dispatcher; throws outside `CatalogFiltersProvider`. */
export function useCatalogFilters(): CatalogFiltersValue {
  const value = use(CatalogFiltersContext);
  if (!value) throw new Error("useCatalogFilters must be used inside CatalogFiltersProvider");
  return value;
}
