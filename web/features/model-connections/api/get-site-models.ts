/** `GET /api/model-connections/site-models` → `{models, default}`: the operator's models a "This site's models" connection may name. */
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiGet } from "../../../lib/api-client.ts";

export function getSiteModels() {
  return apiGet("/api/model-connections/site-models");
}

export const siteModelsQueryOptions = () =>
  queryOptions({ queryKey: ["/api/model-connections/site-models"], queryFn: getSiteModels, staleTime: 5 * 60_000 });

export function useSiteModels() {
  return useQuery(siteModelsQueryOptions());
}
