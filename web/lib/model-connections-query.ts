/**
 * `GET /api/model-connections`: the signed-in person's model connections,
 * the default first (DESIGN.md "Your own model (turn 3)"). Shared:
 * /settings/models manages them (features/model-connections) and the chat
 * menu picks one per conversation (features/chat).
 */
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { ModelConnection } from "../../schema/model-connections.ts";
import { apiGet } from "./api-client.ts";

/** Throws the SPEC.md §8 error (`401: …` for visitors, who should never ask). */
export function getModelConnections() {
  return apiGet("/api/model-connections");
}

export const modelConnectionsQueryOptions = () =>
  queryOptions({
    queryKey: ["/api/model-connections"],
    queryFn: getModelConnections,
  });

/** The list, asked only when `signedIn`. */
export function useModelConnections(signedIn: boolean) {
  return useQuery({ ...modelConnectionsQueryOptions(), enabled: signedIn });
}

/**
 * The connection that answers in a conversation that picked `pickedId`:
 * that one, else the person's default; undefined: the site's model.
 */
export function answeringConnection(connections: readonly ModelConnection[], pickedId: string | null): ModelConnection | undefined {
  return connections.find((c) => c.id === pickedId) ?? connections.find((c) => c.isDefault);
}

/** How a connection is named in the chat: "Name · model". */
export function connectionLabel(connection: Pick<ModelConnection, "name" | "model">): string {
  return `${connection.name} · ${connection.model}`;
}
